import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState } from 'react';
import { CubeyChat } from '../features/cubey/cubey-chat';
import { useCubeySetupQuery } from '../features/cubey/queries';
import { GenerationPlaceholder, Placeholder, XcubePanel } from '../features/cubey/tool-panels';
import {
  CATEGORIES,
  type CategoryId,
  cubeyBlurb,
  loadToolChoice,
  saveToolChoice,
  selectedTool,
  type Tool,
  type ToolChoice,
  type ToolStatus,
  toolStatus,
} from '../features/cubey/tools';
import { cn } from '../lib/cn';
import { useDocumentTitle } from '../lib/document-title';

/** The Cubes page: a category selector, its grid of tools, and the chosen tool's panel. */
export default function CubesPage() {
  const { t } = useLingui();
  useDocumentTitle('Cubes');
  const [choice, setChoice] = useState<ToolChoice>(loadToolChoice);
  const update = (next: ToolChoice) => {
    setChoice(next);
    saveToolChoice(next);
  };
  const category = CATEGORIES.find((c) => c.id === choice.category)!;
  const categoryName = category.label;
  const tool = selectedTool(choice, choice.category);
  // What this server has set up (a model for Cubey, a media generation service): its own answer.
  const setup = useCubeySetupQuery().data;

  return (
    <div className="grid gap-6">
      <header className="grid gap-1">
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Cubes</h1>
        <p className="text-sm text-muted-foreground">
          <Trans>AI tools for the community. Pick a category, then a tool.</Trans>
        </p>
      </header>

      <fieldset className="flex flex-wrap gap-2">
        <legend className="sr-only">
          <Trans>Category</Trans>
        </legend>
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

      <ul aria-label={t`${categoryName} tools`} className="grid grid-cols-2 gap-3 lg:grid-cols-3">
        {category.tools.map((t) => (
          <ToolCard
            key={t.id}
            tool={t}
            status={toolStatus(t, setup)}
            blurb={(t.panel === 'cubey' && cubeyBlurb(setup)) || t.blurb}
            selected={t.id === tool?.id}
            onSelect={() => update({ ...choice, tools: { ...choice.tools, [choice.category]: t.id } })}
          />
        ))}
      </ul>

      <section
        aria-label={tool ? tool.name : t`${categoryName} tools`}
        className="min-w-0 rounded-xl border bg-card p-3 shadow-sm sm:p-5"
      >
        {tool ? (
          <>
            <h2 className="mb-4 text-lg font-semibold">{tool.name}</h2>
            <ToolPanel tool={tool} />
          </>
        ) : (
          <Placeholder title={category.label} text={t`Every ${categoryName} tool is coming soon.`} />
        )}
      </section>
    </div>
  );
}

/**
 * A tool: its icon, name, one line on what it does, and whether it is soon or not set up here.
 * The button holds the icon and the name (and Soon); the line and the status beside it describe
 * it (aria-describedby), and a click anywhere on the card presses it (its ::after covers the card).
 */
function ToolCard({
  tool,
  status,
  blurb,
  selected,
  onSelect,
}: {
  tool: Tool;
  status: ToolStatus;
  blurb: string;
  selected: boolean;
  onSelect: () => void;
}) {
  const id = useId();
  const notSetUp = status === 'not-set-up';
  const Icon = tool.icon;
  return (
    <li
      className={cn(
        'relative flex min-w-0 flex-col gap-1.5 rounded-lg border bg-card p-3 shadow-xs transition-colors',
        'has-[button:enabled]:hover:border-primary has-[button:disabled]:opacity-70',
        selected && 'border-primary ring-2 ring-primary/30',
      )}
    >
      <button
        type="button"
        disabled={tool.soon}
        aria-pressed={selected}
        aria-describedby={notSetUp ? `${id}-blurb ${id}-status` : `${id}-blurb`}
        onClick={onSelect}
        className={cn(
          'flex min-w-0 items-center gap-3 text-start text-sm font-semibold outline-none',
          'after:absolute after:inset-0 after:rounded-lg focus-visible:after:outline-2 focus-visible:after:outline-offset-2 focus-visible:after:outline-ring',
          'disabled:cursor-not-allowed disabled:after:cursor-not-allowed',
        )}
      >
        <span
          aria-hidden="true"
          className="flex size-9 shrink-0 items-center justify-center rounded-md bg-primary/10 text-primary"
        >
          <Icon className="size-5" />
        </span>
        <span className="user-text min-w-0">{tool.name}</span>
        {tool.soon ? (
          <span className="ms-auto shrink-0 rounded-full bg-muted px-2 py-0.5 text-xs font-semibold text-muted-foreground">
            <Trans>Soon</Trans>
          </span>
        ) : null}
      </button>
      <p id={`${id}-blurb`} className="user-text text-xs text-muted-foreground">
        {blurb}
      </p>
      {notSetUp ? (
        <p
          id={`${id}-status`}
          className="w-fit rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900 dark:bg-amber-400/15 dark:text-amber-200"
        >
          <Trans>Not set up here</Trans>
        </p>
      ) : null}
    </li>
  );
}

function ToolPanel({ tool }: { tool: Tool }) {
  const { t } = useLingui();
  const name = tool.name;
  switch (tool.panel) {
    case 'cubey':
      return <CubeyChat />;
    case 'xcube':
      return <XcubePanel />;
    case 'generation':
      return <GenerationPlaceholder name={tool.name} />;
    default:
      return (
        <Placeholder
          title={tool.name}
          text={t`${name} is not set up on this server: nothing here can run it yet.`}
        />
      );
  }
}
