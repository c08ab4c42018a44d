import { Boxes, House, Images, type LucideIcon, MessageCircle, Search } from 'lucide-react';

export interface NavItem {
  to: string;
  label: string;
  icon: LucideIcon;
}

/** The five main destinations: header links from md up, the bottom tab bar below. */
export const NAV_ITEMS: readonly NavItem[] = [
  { to: '/', label: 'Home', icon: House },
  { to: '/cubes', label: 'Cubes', icon: Boxes },
  { to: '/search', label: 'Search', icon: Search },
  { to: '/gallery', label: 'Gallery', icon: Images },
  { to: '/chat', label: 'Chat', icon: MessageCircle },
];
