import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card } from '../ui/card';

interface PagePlaceholderProps {
  title: string;
  description: string;
  icon: LucideIcon;
  children?: ReactNode;
}

/** A page's heading and an honest line about what it will hold, until the feature lands. */
export function PagePlaceholder({ title, description, icon: Icon, children }: PagePlaceholderProps) {
  return (
    <section className="grid gap-6">
      <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">{title}</h1>
      <Card className="flex flex-col items-center gap-3 px-6 py-14 text-center">
        <span className="flex size-12 items-center justify-center rounded-full bg-accent text-accent-foreground">
          <Icon aria-hidden="true" className="size-6" />
        </span>
        <p className="max-w-md text-sm text-muted-foreground">{description}</p>
        {children}
      </Card>
    </section>
  );
}
