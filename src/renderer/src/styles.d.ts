// Stylesheets are imported for their side effect; Vite bundles them (TypeScript 7 checks that
// every side-effect import resolves to something it knows).
declare module '*.css';
