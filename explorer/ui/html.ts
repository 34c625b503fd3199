/** JSX-like tagged templates for preact (htm, bound to preact's `h`), with no compile step of our own. */
export { html } from 'htm/preact'
