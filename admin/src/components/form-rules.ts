/**
 * antd-zod rules that show the shared schemas' messages translated. The schemas carry keys
 * such as 'validation.emailRequired'; only the first issue of a field is shown.
 */
import type { FormRule } from 'antd';
import { createSchemaFieldRule } from 'antd-zod';
import type { $ZodObject, $ZodShape } from 'zod/v4/core';
import { translateValidation } from '../providers';

export function zodRule<T extends $ZodShape>(schema: $ZodObject<T>): FormRule {
  const rule = createSchemaFieldRule(schema);
  return (form) => {
    const inner = rule(form);
    return {
      validator: async (r, value) => {
        try {
          await inner.validator?.(r, value, () => undefined);
        } catch (errors) {
          const first: unknown = Array.isArray(errors) ? errors[0] : errors;
          const message = first instanceof Error ? first.message : String(first);
          throw new Error(translateValidation(message), { cause: errors });
        }
      },
    };
  };
}
