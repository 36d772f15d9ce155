/**
 * The sign-in form's rule: the shared loginSchema through zodRule, both loaded on the first submit.
 * zod and antd-zod were about a sixth of the sign-in page's bytes (issue 12); by the time someone
 * presses "Đăng nhập" the chunk is a few kilobytes away.
 */
import type { FormRule } from 'antd';

const load = () => Promise.all([import('../form-rules'), import('@doanhoi/shared/schemas/auth')]);

export const loginRule: FormRule = (form) => ({
  validator: async (rule, value) => {
    const [{ zodRule }, { loginSchema }] = await load();
    const outer = zodRule(loginSchema);
    const inner = typeof outer === 'function' ? outer(form) : outer;
    await inner.validator?.(rule, value, () => undefined);
  },
});
