// `node --import` hook: resolve the bare specifier "electron" to the stand-in.
import { register } from 'node:module';

register(
  'data:text/javascript,' +
    encodeURIComponent(`
      export async function resolve(specifier, context, next) {
        if (specifier === 'electron') return { url: ${JSON.stringify(new URL('./electron-stand-in.mjs', import.meta.url).href)}, shortCircuit: true };
        return next(specifier, context);
      }`),
);
