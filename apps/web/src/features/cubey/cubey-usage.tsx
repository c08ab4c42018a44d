/**
 * What is left of the member's Cubey tokens today, under the chat box: shown only when the
 * operator's model has a daily limit (`CUBEY_DAILY_TOKENS`); none offline.
 */
import { useLingui } from '@lingui/react/macro';
import { useCubeyUsageQuery } from './queries';

export function CubeyUsageLine() {
  const usage = useCubeyUsageQuery();
  const { i18n, t } = useLingui();
  const data = usage.data;
  if (!data || data.limit === null || data.left === null) return null;
  // Numbers and the time in the member's language (i18n.locale), written as it writes them.
  const left = i18n.number(data.left);
  const limit = i18n.number(data.limit);
  const time = new Intl.DateTimeFormat(i18n.locale, { hour: '2-digit', minute: '2-digit' }).format(
    new Date(data.resetsAt),
  );
  return (
    <p className="text-xs text-muted-foreground" data-testid="cubey-usage">
      {data.left > 0
        ? t`${left} of ${limit} tokens left today`
        : t`No tokens left today: Cubey is back at ${time}`}
    </p>
  );
}
