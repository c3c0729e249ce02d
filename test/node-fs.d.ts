// The few Node file-system calls the Node project's tests make (reading fixtures byte for byte, and
// the channel sources the upstream catalogue is held to). The Worker's types have no `node:fs`.
declare module 'node:fs' {
  export function readFileSync(path: string): Uint8Array
  export function readFileSync(path: string, encoding: 'utf8'): string
  export function existsSync(path: string): boolean
  export function readdirSync(path: string, options: { recursive: true; encoding: 'utf8' }): string[]
}
declare module 'node:path' {
  export function join(...parts: string[]): string
}
