/** Zod schemas shared with the web forms. Imports only zod: safe for the browser bundle. */
export * from './modules/auth/auth.schema.js';
