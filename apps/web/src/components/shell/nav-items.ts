import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Boxes, House, Images, type LucideIcon, MessageCircle, Search } from 'lucide-react';

export interface NavItem {
  to: string;
  /** Translated where it is shown (`i18n._(label)`). */
  label: MessageDescriptor;
  icon: LucideIcon;
}

/** The five main destinations: header links from md up, the bottom tab bar below. */
export const NAV_ITEMS: readonly NavItem[] = [
  { to: '/', label: msg`Home`, icon: House },
  { to: '/cubes', label: msg`Cubes`, icon: Boxes },
  { to: '/search', label: msg`Search`, icon: Search },
  { to: '/gallery', label: msg`Gallery`, icon: Images },
  { to: '/chat', label: msg`Chat`, icon: MessageCircle },
];
