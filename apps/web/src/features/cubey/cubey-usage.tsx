/**
 * What is left of the member's Cubey tokens today, under the chat box: shown only when the
 * operator's model has a daily limit (`CUBEY_DAILY_TOKENS`); none offline.
 */
import { useCubeyUsageQuery } from './queries';

const number = (n: number) => n.toLocaleString('en-US');

function resetText(iso: string): string {
  return new Date(iso).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
}

export function CubeyUsageLine() {
  const usage = useCubeyUsageQuery();
  const data = usage.data;
  if (!data || data.limit === null || data.left === null) return null;
  return (
    <p className="text-xs text-muted-foreground" data-testid="cubey-usage">
      {data.left > 0
        ? `${number(data.left)} of ${number(data.limit)} tokens left today`
        : `No tokens left today: Cubey is back at ${resetText(data.resetsAt)}`}
    </p>
  );
}
