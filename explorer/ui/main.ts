import { render } from 'preact'
import { App } from './App.ts'
import { html } from './html.ts'

render(html`<${App} />`, document.getElementById('explorer') as HTMLElement)
