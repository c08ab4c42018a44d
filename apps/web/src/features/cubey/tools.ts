/**
 * The Cubes page's catalogue: four categories of AI tools, each with its icon and one line on
 * what it does, some marked soon (shown, disabled, with a 'Soon' badge), and the choice of tool
 * per category, kept in the browser across reloads. Whether a tool is set up on this server comes
 * from the server (`cubey.setup`): `toolStatus`.
 */
import type { CubeySetup } from '@cubes/api/schemas';
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

export const CATEGORIES: Category[] = [
  {
    id: 'cubes',
    label: 'CUBES',
    tools: [
      {
        id: 'cubey',
        name: 'Chat with Cubey',
        panel: 'cubey',
        icon: MessageCircle,
        blurb: 'Ask Cubey about the app and the community.',
      },
      {
        id: 'art',
        name: 'Art Generator',
        panel: 'generation',
        icon: Palette,
        blurb: 'Turns a prompt into an image.',
      },
      {
        id: 'music',
        name: 'Music AI',
        panel: 'generation',
        icon: Music,
        blurb: 'Turns a prompt into a short track.',
      },
      {
        id: 'fun',
        name: 'Fun AI',
        panel: 'generation',
        icon: Smile,
        blurb: 'Makes playful pictures and memes.',
      },
      {
        id: 'video',
        name: 'Video AI',
        panel: 'placeholder',
        icon: Clapperboard,
        blurb: 'Turns a prompt into a short clip.',
      },
    ],
  },
  {
    id: 'social',
    label: 'SOCIAL AI',
    tools: [
      {
        id: 'x-agent',
        name: 'X AI Agent',
        soon: true,
        panel: 'placeholder',
        icon: Bot,
        blurb: 'Posts and replies for you on X.',
      },
      {
        id: 'tiktok-agent',
        name: 'TikTok AI Agent',
        soon: true,
        panel: 'placeholder',
        icon: Video,
        blurb: 'Plans and captions your TikToks.',
      },
      {
        id: 'whatsapp',
        name: 'Whatsapp AIA',
        soon: true,
        panel: 'placeholder',
        icon: MessageSquare,
        blurb: 'An AI assistant in WhatsApp.',
      },
      {
        id: 'telegram',
        name: 'Telegram AIA',
        soon: true,
        panel: 'placeholder',
        icon: Send,
        blurb: 'An AI assistant in Telegram.',
      },
      {
        id: 'xchat',
        name: 'Xchat',
        panel: 'placeholder',
        icon: MessagesSquare,
        blurb: 'Chats on X with AI help.',
      },
      {
        id: 'xcube',
        name: 'Xcube',
        panel: 'xcube',
        icon: SquarePen,
        blurb: 'Drafts and previews a post for X, on this device.',
      },
    ],
  },
  {
    id: 'vip',
    label: 'VIP',
    tools: [
      {
        id: 'premium-art',
        name: 'Premium ART',
        soon: true,
        panel: 'placeholder',
        icon: Crown,
        blurb: 'Larger, finer images.',
      },
      {
        id: 'premium-music',
        name: 'Premium MUSIC AI',
        soon: true,
        panel: 'placeholder',
        icon: Crown,
        blurb: 'Longer, richer tracks.',
      },
      {
        id: 'premium-fun',
        name: 'Premium FUN AI',
        soon: true,
        panel: 'placeholder',
        icon: Crown,
        blurb: 'More styles of fun media.',
      },
      {
        id: 'premium-video',
        name: 'Premium Video AI',
        soon: true,
        panel: 'placeholder',
        icon: Crown,
        blurb: 'Longer clips in higher quality.',
      },
      {
        id: 'alpha-cube',
        name: 'Alpha Cube',
        soon: true,
        panel: 'placeholder',
        icon: Gem,
        blurb: 'Early tools for VIP members.',
      },
    ],
  },
  {
    id: 'cube3',
    label: 'CUBE3',
    tools: [
      {
        id: 'crypto-analyzer',
        name: 'Crypto AI Analyzer',
        panel: 'placeholder',
        icon: TrendingUp,
        blurb: 'Reads crypto market trends with AI.',
      },
      {
        id: 'swappy',
        name: 'Swappy Cube',
        soon: true,
        panel: 'placeholder',
        icon: ArrowLeftRight,
        blurb: 'Swaps one token for another.',
      },
      {
        id: 'bridge',
        name: 'Bridge Cube',
        soon: true,
        panel: 'placeholder',
        icon: Link2,
        blurb: 'Moves tokens between chains.',
      },
      {
        id: 'staking',
        name: 'Staking cube and Rewards',
        soon: true,
        panel: 'placeholder',
        icon: Coins,
        blurb: 'Stakes tokens and earns rewards.',
      },
      {
        id: 'llc',
        name: 'L.L.C Revenue shares',
        soon: true,
        panel: 'placeholder',
        icon: Landmark,
        blurb: 'Shares in the revenue.',
      },
    ],
  },
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
    ? 'Ask Cubey anything: a language model answers.'
    : 'Offline assistant: answers about the app and the community, no model connected.';
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
