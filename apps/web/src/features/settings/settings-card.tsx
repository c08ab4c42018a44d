import type { ReactNode } from 'react';
import { Card } from '../../components/ui/card';

/** One titled section of the settings page; the heading labels the region. */
export function SettingsCard({
  id,
  title,
  description,
  children,
}: {
  id: string;
  title: string;
  description: string;
  children: ReactNode;
}) {
  return (
    <Card role="region" aria-labelledby={id} className="p-5 sm:p-6">
      <div className="mb-5 grid gap-1">
        <h2 id={id} className="text-lg font-semibold tracking-tight">
          {title}
        </h2>
        <p className="text-sm text-muted-foreground">{description}</p>
      </div>
      {children}
    </Card>
  );
}
