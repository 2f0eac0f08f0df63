/** Public URLs of resources, built from the configured base URLs. */
import type { Context } from './context.js';

export const apiUrl = (ctx: Context, path: string) => `${ctx.config.publicUrl}/v1${path}`;
export const appUrl = (ctx: Context, path: string) => `${ctx.config.appUrl}${path}`;
