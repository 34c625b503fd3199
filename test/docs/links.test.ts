import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'

const projectRoot = fileURLToPath(new URL('../..', import.meta.url))
const pages = ['README.md', ...readdirSync(join(projectRoot, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)]
const scripts = Object.keys((JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts)

/** The text of a page outside fenced code blocks, where a link is a link. */
function proseOf(text: string): string {
  return text.replace(/^```[\s\S]*?^```/gm, '')
}

/** GitHub's anchor of a heading: lower case, punctuation but `-` and `_` dropped, spaces as `-`. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-')
}

function anchorsOf(path: string): Set<string> {
  const headings = proseOf(readFileSync(path, 'utf8')).match(/^#{1,6} .+$/gm) ?? []
  return new Set(headings.map((line) => anchorOf(line.replace(/^#+ /, ''))))
}

describe.each(pages)('%s', (page) => {
  const path = join(projectRoot, page)
  const text = readFileSync(path, 'utf8')

  test('every relative link resolves, anchors included', () => {
    const links = [...proseOf(text).matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1] as string)
    const broken = links
      .filter((target) => !/^[a-z]+:/i.test(target))
      .filter((target) => {
        const [file = '', anchor] = target.split('#')
        const targetPath = file === '' ? path : resolve(dirname(path), file)
        if (!existsSync(targetPath)) return true
        return anchor !== undefined && targetPath.endsWith('.md') && !anchorsOf(targetPath).has(anchor)
      })
    expect(broken, `broken links in ${relative(projectRoot, path)}`).toEqual([])
  })

  test('every `npm run <script>` it names exists', () => {
    const named = [...text.matchAll(/npm run (?:-s )?([a-z][\w:-]*)/g)].map((match) => match[1] as string)
    expect(named.filter((name) => !scripts.includes(name))).toEqual([])
  })
})

test('the README is read in minutes: at most 300 lines', () => {
  expect(readFileSync(join(projectRoot, 'README.md'), 'utf8').split('\n').length).toBeLessThanOrEqual(300)
})
