/**
 * The app's one way to hold a form (every form of the app uses it): string fields checked with a
 * shared zod schema, the procedure's own input schema where there is one, so a form refuses what
 * the server would, in the server's words. The first message per field; checked on submit, then
 * again while typing (with `mode: 'change'`, from the first change on); focus on the first invalid
 * field; `reset()` after a send.
 *
 * Options, for the forms whose input is more than their text fields:
 * - `toInput` builds the procedure's input from the fields (the post id, the images, the chat...),
 *   so `onValid` gets the schema's output, ready to send. An issue on no field is `errors.root`.
 * - `values` with `onValuesChange`: the fields' values kept elsewhere, e.g. a draft that lives in
 *   sessionStorage (lib/drafts.ts) and is shared by every box of the same place.
 * - The schema may be a loader, `() => import('@cubes/api/schemas').then(...)`: the home page's
 *   composer keeps zod out of the first page. `loadSchema()` asks for it early (on focus); a submit
 *   before it has come waits for it, and `onLoadError` hears when it cannot come.
 *
 * Our own hook rather than react-hook-form (with its zod resolver): the forms include the home
 * page's composer, and the first page's JavaScript budget (scripts/initial-js.ts) has no room for
 * the library; what the forms need is this file. It imports zod's types only.
 */
import { type FormEvent, useCallback, useId, useRef, useState } from 'react';
import type { z } from 'zod';
import { errorText } from '../../lib/error-text';

type StringValues = Record<string, string>;
/** The first message per field; `root` holds one on no field (the input's other parts). */
export type FieldErrors<TValues> = Partial<Record<(keyof TValues & string) | 'root', string>>;

type Schema<TOutput, TInput> = z.ZodType<TOutput, TInput>;
type SchemaSource<TOutput, TInput> = Schema<TOutput, TInput> | (() => Promise<Schema<TOutput, TInput>>);

interface Options<TValues extends StringValues, TInput> {
  /** `change`: show what the schema says from the first change on, not only after a submit. */
  mode?: 'submit' | 'change';
  toInput?: (values: TValues) => TInput;
  values?: TValues;
  onValuesChange?: (values: TValues) => void;
}

export function validateWith<TValues extends StringValues, TOutput>(
  schema: z.ZodType<TOutput>,
  input: unknown,
  fields: readonly string[],
): { ok: true; data: TOutput } | { ok: false; errors: FieldErrors<TValues> } {
  const result = schema.safeParse(input);
  if (result.success) return { ok: true, data: result.data };
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const path = String(issue.path[0] ?? '');
    const key = fields.includes(path) ? path : 'root';
    // The shared schemas speak English: the app's words for their messages (lib/error-text.ts).
    errors[key] ??= errorText(issue.message);
  }
  return { ok: false, errors: errors as FieldErrors<TValues> };
}

export function useZodForm<TValues extends StringValues, TOutput>(
  schema: SchemaSource<TOutput, TValues>,
  initialValues: TValues,
  options?: Options<TValues, TValues>,
): ZodForm<TValues, TOutput>;
export function useZodForm<TValues extends StringValues, TOutput, TInput>(
  schema: SchemaSource<TOutput, TInput>,
  initialValues: TValues,
  options: Options<TValues, TInput> & { toInput: (values: TValues) => TInput },
): ZodForm<TValues, TOutput>;
export function useZodForm<TValues extends StringValues, TOutput, TInput>(
  source: SchemaSource<TOutput, TInput>,
  initialValues: TValues,
  { mode = 'submit', toInput, values: given, onValuesChange }: Options<TValues, TInput> = {},
): ZodForm<TValues, TOutput> {
  const idPrefix = useId();
  const [initial] = useState(initialValues);
  const [own, setOwn] = useState<TValues>(initialValues);
  const values = given ?? own;
  const [attempted, setAttempted] = useState(false);
  const [edited, setEdited] = useState(false);
  /** Messages the server attached to fields, until the next change. */
  const [serverErrors, setServerErrors] = useState<FieldErrors<TValues>>({});
  const [loaded, setLoaded] = useState<Schema<TOutput, TInput> | null>(null);
  const schema = typeof source === 'function' ? loaded : source;
  const waiting = useRef(false);

  const fields = Object.keys(values);
  const input = (of: TValues) => (toInput ? toInput(of) : of);
  const shown = attempted || (mode === 'change' && edited);
  const checked = shown && schema ? validateWith<TValues, TOutput>(schema, input(values), fields) : null;
  const errors: FieldErrors<TValues> = { ...(checked && !checked.ok ? checked.errors : {}), ...serverErrors };

  const fieldId = useCallback((name: keyof TValues & string) => `${idPrefix}-${name}`, [idPrefix]);

  const setValue = (name: keyof TValues & string, value: string) => {
    if (given) onValuesChange?.({ ...given, [name]: value });
    else setOwn((now) => ({ ...now, [name]: value }));
    setEdited(true);
    setServerErrors((now) => (Object.keys(now).length ? {} : now));
  };

  /** The schema, loading it first when it is a loader (at most once at a time). */
  const loadSchema = (): Promise<Schema<TOutput, TInput>> => {
    if (schema) return Promise.resolve(schema);
    if (typeof source !== 'function') return Promise.resolve(source);
    return source().then((got) => {
      setLoaded(() => got);
      return got;
    });
  };

  /**
   * Checks the values as they are now; calls `onValid` with the schema's output only when every
   * part passes, else shows the messages and focuses the first invalid field.
   */
  const handleSubmit =
    (onValid: (data: TOutput) => void, onLoadError?: (error: unknown) => void) => (event?: FormEvent) => {
      event?.preventDefault();
      const submitted = values;
      const check = (using: Schema<TOutput, TInput>) => {
        setAttempted(true);
        setServerErrors({});
        const result = validateWith<TValues, TOutput>(using, input(submitted), fields);
        if (result.ok) {
          onValid(result.data);
          return;
        }
        const first = fields.find((name) => result.errors[name]);
        if (first) document.getElementById(fieldId(first))?.focus();
      };
      if (schema) {
        check(schema);
        return;
      }
      // A second submit while the schema is on its way would send twice.
      if (waiting.current) return;
      waiting.current = true;
      loadSchema()
        .then(check, (error: unknown) => onLoadError?.(error))
        .finally(() => {
          waiting.current = false;
        });
    };

  /** Messages the server attached to fields (e.g. a validation failure it caught). */
  const setFieldErrors = useCallback((next: Record<string, string>) => {
    setServerErrors((prev) => ({ ...prev, ...next }));
  }, []);

  /** After a send: no messages until the next submit (or change); own values back to the first (or `to`). */
  const reset = (to?: TValues) => {
    if (!given) setOwn(to ?? initial);
    setAttempted(false);
    setEdited(false);
    setServerErrors({});
  };

  /** What a TextField needs of one field: `<TextField {...form.field('email')} label="Email" />`. */
  const field = (name: keyof TValues & string) => ({
    id: fieldId(name),
    value: values[name] ?? '',
    onValueChange: (value: string) => setValue(name, value),
    error: errors[name],
  });

  return { values, errors, setValue, handleSubmit, setFieldErrors, fieldId, field, reset, loadSchema };
}

export interface ZodForm<TValues extends StringValues, TOutput> {
  values: TValues;
  errors: FieldErrors<TValues>;
  setValue: (name: keyof TValues & string, value: string) => void;
  handleSubmit: (
    onValid: (data: TOutput) => void,
    onLoadError?: (error: unknown) => void,
  ) => (event?: FormEvent) => void;
  setFieldErrors: (next: Record<string, string>) => void;
  fieldId: (name: keyof TValues & string) => string;
  field: (name: keyof TValues & string) => {
    id: string;
    value: string;
    onValueChange: (value: string) => void;
    error: string | undefined;
  };
  reset: (to?: TValues) => void;
  /** The schema, loaded now if it was given as a loader (call it to have it before a submit). */
  loadSchema: () => Promise<unknown>;
}
