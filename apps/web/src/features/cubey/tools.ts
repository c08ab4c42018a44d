/**
 * The Cubes page's catalogue: four categories of AI tools, some marked soon (shown, disabled,
 * with a 'Soon' badge), and the choice of tool per category, kept in the browser across reloads.
 */
export type CategoryId = 'cubes' | 'social' | 'vip' | 'cube3';

export interface Tool {
  id: string;
  name: string;
  soon?: true;
  /** What the tool's panel is. */
  panel: 'cubey' | 'xcube' | 'generation' | 'placeholder';
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
      { id: 'cubey', name: 'Chat with Cubey', panel: 'cubey' },
      { id: 'art', name: 'Art Generator', panel: 'generation' },
      { id: 'music', name: 'Music AI', panel: 'generation' },
      { id: 'fun', name: 'Fun AI', panel: 'generation' },
      { id: 'video', name: 'Video AI', panel: 'placeholder' },
    ],
  },
  {
    id: 'social',
    label: 'SOCIAL AI',
    tools: [
      { id: 'x-agent', name: 'X AI Agent', soon: true, panel: 'placeholder' },
      { id: 'tiktok-agent', name: 'TikTok AI Agent', soon: true, panel: 'placeholder' },
      { id: 'whatsapp', name: 'Whatsapp AIA', soon: true, panel: 'placeholder' },
      { id: 'telegram', name: 'Telegram AIA', soon: true, panel: 'placeholder' },
      { id: 'xchat', name: 'Xchat', panel: 'placeholder' },
      { id: 'xcube', name: 'Xcube', panel: 'xcube' },
    ],
  },
  {
    id: 'vip',
    label: 'VIP',
    tools: [
      { id: 'premium-art', name: 'Premium ART', soon: true, panel: 'placeholder' },
      { id: 'premium-music', name: 'Premium MUSIC AI', soon: true, panel: 'placeholder' },
      { id: 'premium-fun', name: 'Premium FUN AI', soon: true, panel: 'placeholder' },
      { id: 'premium-video', name: 'Premium Video AI', soon: true, panel: 'placeholder' },
      { id: 'alpha-cube', name: 'Alpha Cube', soon: true, panel: 'placeholder' },
    ],
  },
  {
    id: 'cube3',
    label: 'CUBE3',
    tools: [
      { id: 'crypto-analyzer', name: 'Crypto AI Analyzer', panel: 'placeholder' },
      { id: 'swappy', name: 'Swappy Cube', soon: true, panel: 'placeholder' },
      { id: 'bridge', name: 'Bridge Cube', soon: true, panel: 'placeholder' },
      { id: 'staking', name: 'Staking cube and Rewards', soon: true, panel: 'placeholder' },
      { id: 'llc', name: 'L.L.C Revenue shares', soon: true, panel: 'placeholder' },
    ],
  },
];

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
