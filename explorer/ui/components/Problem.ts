import type { ApiState } from '../useApi.ts'
import { html } from '../html.ts'

/** What a page shows instead of its data: loading, or why there is none. */
export function Problem({ state }: { state: Exclude<ApiState<unknown>, { status: 'ready' }> }) {
  if (state.status === 'loading') return html`<p class="muted" aria-busy="true">Loading…</p>`
  return html`<p class="problem" role="alert">${state.message}</p>`
}
