/**
 * The Cubes page's catalogue: four categories of AI tools, each with its icon and one line on
 * what it does, some marked soon (shown, disabled, with a 'Soon' badge), and the choice of tool
 * per category, kept in the browser across reloads. Whether a tool is set up on this server comes
 * from the server (`cubey.setup`): `toolStatus`.
 */
import type { CubeySetup } from '@cubes/api/schemas';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import {
  ArrowLeftRight,
  Bot,
  Clapperboard,
  Coins,
  Crown,
  Gem,
  Landmark,
  Link2,
  type LucideIcon,
  MessageCircle,
  MessageSquare,
  MessagesSquare,
  Music,
  Palette,
  Send,
  Smile,
  SquarePen,
  TrendingUp,
  Video,
} from 'lucide-react';
import { i18n } from '../../lib/i18n';

export type CategoryId = 'cubes' | 'social' | 'vip' | 'cube3';

export interface Tool {
  id: string;
  name: string;
  soon?: true;
  /** What the tool's panel is. */
  panel: 'cubey' | 'xcube' | 'generation' | 'placeholder';
  icon: LucideIcon;
  /** One line on what it does. */
  blurb: string;
}

export interface Category {
  id: CategoryId;
  label: string;
  tools: Tool[];
}

/**
 * A tool as written below: its name and line as messages (a coined product name, e.g. "Xcube",
 * stays a plain string), read in the active language each time they are read (`name`, `blurb`),
 * so the page that lists them needs no change.
 */
type ToolDefinition = Omit<Tool, 'name' | 'blurb'> & {
  name: MessageDescriptor | string;
  blurb: MessageDescriptor;
};

function translated(text: MessageDescriptor | string): string {
  return typeof text === 'string' ? text : i18n._(text);
}

function tool({ name, blurb, ...rest }: ToolDefinition): Tool {
  return {
    ...rest,
    get name() {
      return translated(name);
    },
    get blurb() {
      return translated(blurb);
    },
  };
}

function category(id: CategoryId, label: MessageDescriptor | string, tools: ToolDefinition[]): Category {
  return {
    id,
    get label() {
      return translated(label);
    },
    tools: tools.map(tool),
  };
}

export const CATEGORIES: Category[] = [
  category('cubes', 'CUBES', [
    {
      id: 'cubey',
      name: msg`Chat with Cubey`,
      panel: 'cubey',
      icon: MessageCircle,
      blurb: msg`Ask Cubey about the app and the community.`,
    },
    {
      id: 'art',
      name: msg`Art Generator`,
      panel: 'generation',
      icon: Palette,
      blurb: msg`Turns a prompt into an image.`,
    },
    {
      id: 'music',
      name: msg`Music AI`,
      panel: 'generation',
      icon: Music,
      blurb: msg`Turns a prompt into a short track.`,
    },
    {
      id: 'fun',
      name: msg`Fun AI`,
      panel: 'generation',
      icon: Smile,
      blurb: msg`Makes playful pictures and memes.`,
    },
    {
      id: 'video',
      name: msg`Video AI`,
      panel: 'placeholder',
      icon: Clapperboard,
      blurb: msg`Turns a prompt into a short clip.`,
    },
  ]),
  category('social', msg`SOCIAL AI`, [
    {
      id: 'x-agent',
      name: msg`X AI Agent`,
      soon: true,
      panel: 'placeholder',
      icon: Bot,
      blurb: msg`Posts and replies for you on X.`,
    },
    {
      id: 'tiktok-agent',
      name: msg`TikTok AI Agent`,
      soon: true,
      panel: 'placeholder',
      icon: Video,
      blurb: msg`Plans and captions your TikToks.`,
    },
    {
      id: 'whatsapp',
      name: 'Whatsapp AIA',
      soon: true,
      panel: 'placeholder',
      icon: MessageSquare,
      blurb: msg`An AI assistant in WhatsApp.`,
    },
    {
      id: 'telegram',
      name: 'Telegram AIA',
      soon: true,
      panel: 'placeholder',
      icon: Send,
      blurb: msg`An AI assistant in Telegram.`,
    },
    {
      id: 'xchat',
      name: 'Xchat',
      panel: 'placeholder',
      icon: MessagesSquare,
      blurb: msg`Chats on X with AI help.`,
    },
    {
      id: 'xcube',
      name: 'Xcube',
      panel: 'xcube',
      icon: SquarePen,
      blurb: msg`Drafts and previews a post for X, on this device.`,
    },
  ]),
  category('vip', 'VIP', [
    {
      id: 'premium-art',
      name: msg`Premium ART`,
      soon: true,
      panel: 'placeholder',
      icon: Crown,
      blurb: msg`Larger, finer images.`,
    },
    {
      id: 'premium-music',
      name: msg`Premium MUSIC AI`,
      soon: true,
      panel: 'placeholder',
      icon: Crown,
      blurb: msg`Longer, richer tracks.`,
    },
    {
      id: 'premium-fun',
      name: msg`Premium FUN AI`,
      soon: true,
      panel: 'placeholder',
      icon: Crown,
      blurb: msg`More styles of fun media.`,
    },
    {
      id: 'premium-video',
      name: msg`Premium Video AI`,
      soon: true,
      panel: 'placeholder',
      icon: Crown,
      blurb: msg`Longer clips in higher quality.`,
    },
    {
      id: 'alpha-cube',
      name: 'Alpha Cube',
      soon: true,
      panel: 'placeholder',
      icon: Gem,
      blurb: msg`Early tools for VIP members.`,
    },
  ]),
  category('cube3', 'CUBE3', [
    {
      id: 'crypto-analyzer',
      name: msg`Crypto AI Analyzer`,
      panel: 'placeholder',
      icon: TrendingUp,
      blurb: msg`Reads crypto market trends with AI.`,
    },
    {
      id: 'swappy',
      name: 'Swappy Cube',
      soon: true,
      panel: 'placeholder',
      icon: ArrowLeftRight,
      blurb: msg`Swaps one token for another.`,
    },
    {
      id: 'bridge',
      name: 'Bridge Cube',
      soon: true,
      panel: 'placeholder',
      icon: Link2,
      blurb: msg`Moves tokens between chains.`,
    },
    {
      id: 'staking',
      name: msg`Staking cube and Rewards`,
      soon: true,
      panel: 'placeholder',
      icon: Coins,
      blurb: msg`Stakes tokens and earns rewards.`,
    },
    {
      id: 'llc',
      name: msg`L.L.C Revenue shares`,
      soon: true,
      panel: 'placeholder',
      icon: Landmark,
      blurb: msg`Shares in the revenue.`,
    },
  ]),
];

/**
 * Where a tool stands on this server: soon (not offered anywhere yet), ready, not set up here (its
 * panel says what it would need), or not known yet (the setup is loading).
 */
export type ToolStatus = 'soon' | 'ready' | 'not-set-up' | 'checking';

export function toolStatus(tool: Tool, setup: CubeySetup | undefined): ToolStatus {
  if (tool.soon) return 'soon';
  if (tool.panel === 'cubey' || tool.panel === 'xcube') return 'ready';
  if (tool.panel === 'generation')
    return !setup ? 'checking' : setup.mediaGeneration ? 'ready' : 'not-set-up';
  return 'not-set-up';
}

/** Cubey's line, from how this server runs it. */
export function cubeyBlurb(setup: CubeySetup | undefined): string | null {
  if (!setup) return null;
  return setup.assistant === 'model'
    ? i18n._(msg`Ask Cubey anything: a language model answers.`)
    : i18n._(msg`Offline assistant: answers about the app and the community, no model connected.`);
}

export const TOOLS_STORAGE_KEY = 'cubes-ai-tools';

export interface ToolChoice {
  category: CategoryId;
  /** The tool chosen in each category (absent: the first one available). */
  tools: Partial<Record<CategoryId, string>>;
}

function available(category: Category, toolId: string | undefined): Tool | null {
  const tool = category.tools.find((t) => t.id === toolId && !t.soon);
  return tool ?? category.tools.find((t) => !t.soon) ?? null;
}

/** The tool shown for a category: the one chosen, else its first available; null when all are soon. */
export function selectedTool(choice: ToolChoice, categoryId: CategoryId): Tool | null {
  const category = CATEGORIES.find((c) => c.id === categoryId)!;
  return available(category, choice.tools[categoryId]);
}

export function loadToolChoice(): ToolChoice {
  try {
    const value = JSON.parse(localStorage.getItem(TOOLS_STORAGE_KEY) ?? 'null') as Partial<ToolChoice> | null;
    const category = CATEGORIES.some((c) => c.id === value?.category) ? value!.category! : 'cubes';
    const tools: ToolChoice['tools'] = {};
    for (const c of CATEGORIES) {
      const id = value?.tools?.[c.id];
      if (typeof id === 'string' && c.tools.some((t) => t.id === id && !t.soon)) tools[c.id] = id;
    }
    return { category, tools };
  } catch {
    return { category: 'cubes', tools: {} };
  }
}

export function saveToolChoice(choice: ToolChoice): void {
  try {
    localStorage.setItem(TOOLS_STORAGE_KEY, JSON.stringify(choice));
  } catch {
    // Storage full or refused (private mode): the choice lasts for this page only.
  }
}
