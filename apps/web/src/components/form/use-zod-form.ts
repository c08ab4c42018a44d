/**
 * Minimal form state driven by a shared zod schema: string fields, the first message per field,
 * re-validation while typing once the user has tried to submit, focus on the first invalid field.
 *
 * Our own hook rather than react-hook-form (with its zod resolver): the forms include the home
 * page's composer, and the first page's JavaScript budget (scripts/initial-js.ts) has no room for
 * the library; what the forms need is this file.
 */
import { type FormEvent, useCallback, useId, useState } from 'react';
import type { z } from 'zod';

export type FieldErrors<TValues> = Partial<Record<keyof TValues & string, string>>;

export function validateWith<TValues extends Record<string, string>, TOutput>(
  schema: z.ZodType<TOutput, TValues>,
  values: TValues,
): { ok: true; data: TOutput } | { ok: false; errors: FieldErrors<TValues> } {
  const result = schema.safeParse(values);
  if (result.success) return { ok: true, data: result.data };
  const errors: FieldErrors<TValues> = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? '') as keyof TValues & string;
    if (field && !errors[field]) errors[field] = issue.message;
  }
  return { ok: false, errors };
}

export function useZodForm<TValues extends Record<string, string>, TOutput>(
  schema: z.ZodType<TOutput, TValues>,
  initialValues: TValues,
) {
  const idPrefix = useId();
  const [values, setValues] = useState<TValues>(initialValues);
  const [errors, setErrors] = useState<FieldErrors<TValues>>({});
  const [attempted, setAttempted] = useState(false);

  const fieldId = useCallback((name: keyof TValues & string) => `${idPrefix}-${name}`, [idPrefix]);

  const setValue = useCallback(
    (name: keyof TValues & string, value: string) => {
      const next = { ...values, [name]: value };
      setValues(next);
      if (attempted) {
        const result = validateWith(schema, next);
        setErrors(result.ok ? {} : result.errors);
      }
    },
    [values, attempted, schema],
  );

  /** Validates; calls `onValid` with the parsed data only when every field passes. */
  const handleSubmit = useCallback(
    (onValid: (data: TOutput) => void) => (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      setAttempted(true);
      const result = validateWith(schema, values);
      if (!result.ok) {
        const { errors: found } = result;
        setErrors(found);
        const first = Object.keys(values).find((name) => found[name as keyof TValues & string]);
        if (first) document.getElementById(`${idPrefix}-${first}`)?.focus();
        return;
      }
      setErrors({});
      onValid(result.data);
    },
    [schema, values, idPrefix],
  );

  /** Messages the server attached to fields (e.g. a validation failure it caught). */
  const setFieldErrors = useCallback((next: Record<string, string>) => {
    setErrors((prev) => ({ ...prev, ...next }));
  }, []);

  /** What a TextField needs of one field: `<TextField {...form.field('email')} label="Email" />`. */
  const field = (name: keyof TValues & string) => ({
    id: fieldId(name),
    value: values[name],
    onValueChange: (value: string) => setValue(name, value),
    error: errors[name],
  });

  return { values, errors, setValue, handleSubmit, setFieldErrors, fieldId, field };
}
