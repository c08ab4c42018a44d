import type { ReactNode } from 'react';
import { Card } from '../../components/ui/card';

/**
 * One titled card of the settings page; the heading labels the region. Cards sit in the page's
 * sections (Profile, Account, …: settings-sections.tsx), whose headings are the h2s.
 */
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
        <h3 id={id} className="text-lg font-semibold tracking-tight">
          {title}
        </h3>
        <p className="text-sm text-muted-foreground">{description}</p>
      </div>
      {children}
    </Card>
  );
}
