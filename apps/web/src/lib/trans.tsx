/**
 * The `<Trans>` the Lingui macros compile to (lingui.config.ts, `runtimeConfigModule`): Lingui's
 * own, with every text value handed over as an element rather than as text.
 *
 * Lingui puts a text value into the message first and then reads the result for its element tags
 * (`<0>…</0>`, and any `<name>…</name>`): a display name such as `Eve <b>x</b>` in "Hi {name}" lost
 * its tags to that reading (the greeting said "Eve x", and the console logged an error for each
 * tag). An element value takes a placeholder of its own (`<3/>`), which the reading cannot open,
 * and React writes its text as text. Numbers stay numbers: plurals choose their form by them.
 */
import { Trans as LinguiTrans, type TransProps } from '@lingui/react';

export function Trans(props: TransProps) {
  const values =
    props.values &&
    Object.fromEntries(
      Object.entries(props.values).map(([key, value]) => [
        key,
        // biome-ignore lint/complexity/noUselessFragments: an element, not the text, is the point.
        typeof value === 'string' ? <>{value}</> : value,
      ]),
    );
  return <LinguiTrans {...props} values={values} />;
}
