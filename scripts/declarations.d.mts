export declare const MAX_FILE_BYTES: number
export declare const MAX_TOTAL_BYTES: number
export interface DeclarationSizes {
  folder: string
  files: number
  total: number
  perEntry: { entry: string; files: number; bytes: number }[]
  largest: { path: string; bytes: number }[]
  overFile: { path: string; bytes: number }[]
  overTotal: boolean
}
export declare function reachable(entries: string[]): Set<string>
export declare function prune(dir: string): { kept: number; removed: number }
export declare function measure(dir: string): DeclarationSizes
export declare function formatSizes(sizes: DeclarationSizes): string
export declare function main(argv: string[]): number
