import { useState } from 'react';
import { CubeyChat } from '../features/cubey/cubey-chat';
import { GenerationPlaceholder, Placeholder, XcubePanel } from '../features/cubey/tool-panels';
import {
  CATEGORIES,
  type CategoryId,
  loadToolChoice,
  saveToolChoice,
  selectedTool,
  type Tool,
  type ToolChoice,
} from '../features/cubey/tools';
import { cn } from '../lib/cn';
import { useDocumentTitle } from '../lib/document-title';

/** The Cubes page: a category selector, its grid of tools, and the chosen tool's panel. */
export default function CubesPage() {
  useDocumentTitle('Cubes');
  const [choice, setChoice] = useState<ToolChoice>(loadToolChoice);
  const update = (next: ToolChoice) => {
    setChoice(next);
    saveToolChoice(next);
  };
  const category = CATEGORIES.find((c) => c.id === choice.category)!;
  const tool = selectedTool(choice, choice.category);

  return (
    <div className="grid gap-6">
      <header className="grid gap-1">
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Cubes</h1>
        <p className="text-sm text-muted-foreground">
          AI tools for the community. Pick a category, then a tool.
        </p>
      </header>

      <fieldset className="flex flex-wrap gap-2">
        <legend className="sr-only">Category</legend>
        {CATEGORIES.map((c) => (
          <button
            key={c.id}
            type="button"
            aria-pressed={c.id === choice.category}
            onClick={() => update({ ...choice, category: c.id as CategoryId })}
            className={cn(
              'rounded-full border px-4 py-1.5 text-sm font-semibold tracking-wide transition-colors',
              c.id === choice.category
                ? 'border-primary bg-primary text-primary-foreground'
                : 'hover:bg-accent',
            )}
          >
            {c.label}
          </button>
        ))}
      </fieldset>

      <ul
        aria-label={`${category.label} tools`}
        className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6"
      >
        {category.tools.map((t) => (
          <li key={t.id} className="min-w-0">
            <button
              type="button"
              disabled={t.soon}
              aria-pressed={t.id === tool?.id}
              onClick={() => update({ ...choice, tools: { ...choice.tools, [choice.category]: t.id } })}
              className={cn(
                'flex h-full min-h-16 w-full flex-col items-start justify-between gap-2 rounded-lg border bg-card p-3 text-left text-sm font-medium shadow-xs transition-colors',
                'enabled:hover:border-primary disabled:cursor-not-allowed disabled:opacity-60',
                t.id === tool?.id && 'border-primary ring-2 ring-primary/30',
              )}
            >
              <span className="user-text">{t.name}</span>
              {t.soon ? (
                <span className="rounded-full bg-muted px-2 py-0.5 text-xs font-semibold text-muted-foreground">
                  Soon
                </span>
              ) : null}
            </button>
          </li>
        ))}
      </ul>

      <section
        aria-label={tool ? tool.name : `${category.label} tools`}
        className="min-w-0 rounded-xl border bg-card p-3 shadow-sm sm:p-5"
      >
        {tool ? (
          <>
            <h2 className="mb-4 text-lg font-semibold">{tool.name}</h2>
            <ToolPanel tool={tool} />
          </>
        ) : (
          <Placeholder title={category.label} text={`Every ${category.label} tool is coming soon.`} />
        )}
      </section>
    </div>
  );
}

function ToolPanel({ tool }: { tool: Tool }) {
  switch (tool.panel) {
    case 'cubey':
      return <CubeyChat />;
    case 'xcube':
      return <XcubePanel />;
    case 'generation':
      return <GenerationPlaceholder name={tool.name} />;
    default:
      return <Placeholder title={tool.name} text={`${tool.name} is not available yet. Check back soon.`} />;
  }
}
