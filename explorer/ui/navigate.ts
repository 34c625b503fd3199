import { useEffect, useState } from 'preact/hooks'

const changed = 'explorer:navigate'

/** Moves to another page of the explorer without reloading it. */
export function navigate(path: string): void {
  if (path === location.pathname + location.search) return
  history.pushState(null, '', path)
  window.scrollTo(0, 0)
  window.dispatchEvent(new Event(changed))
}

/** The current path, following links, the search box and the browser's back and forward. */
export function usePath(): string {
  const [path, setPath] = useState(location.pathname)
  useEffect(() => {
    const update = (): void => setPath(location.pathname)
    window.addEventListener('popstate', update)
    window.addEventListener(changed, update)
    return () => {
      window.removeEventListener('popstate', update)
      window.removeEventListener(changed, update)
    }
  }, [])
  return path
}

/** A same-origin link click without modifier keys becomes an in-page navigation. */
export function followLinks(event: MouseEvent): void {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
  const link = (event.target as Element | null)?.closest('a')
  if (link === null || link === undefined || link.target !== '' || link.origin !== location.origin) return
  if (!/^\/(?:$|jobs\/|services\/|sellers\/|buyers\/)/.test(link.pathname)) return
  event.preventDefault()
  navigate(link.pathname)
}
