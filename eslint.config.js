// ESLint for the front end (static/js): plain ES modules run by the browser as they are, no build step.
// `make lint-js` runs it; tsc (jsconfig.json) checks the types the modules' JSDoc and `// @ts-check` declare.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["node_modules/", "var/", "staticfiles/", "static/vendor/"] },
  js.configs.recommended,
  {
    files: ["static/js/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.browser } },
    rules: {
      "no-unused-vars": ["error", { args: "none", caughtErrors: "none" }],
      eqeqeq: ["error", "smart"],
      "no-var": "error",
      "prefer-const": "error",
    },
  },
  {
    files: ["eslint.config.js"],
    languageOptions: { sourceType: "module", globals: { ...globals.node } },
  },
];
