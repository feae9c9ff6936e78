import { readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import ts from 'typescript'
import { type Block, entryMap, outDir, root } from './blocks'

/**
 * Type-checks the blocks' copies with the repo's own compiler options (tsconfig.json): one program whose roots
 * are the copies, so `src/` is checked only as far as they import it. Returns each block's diagnostics as
 * README locations (`README.md:460: TS2304 Cannot find name 'invariant'.`).
 */
export function typecheckBlocks(blocks: Block[]): Map<Block, string[]> {
  const configPath = join(root, 'tsconfig.json')
  const config = ts.readConfigFile(configPath, (path) => readFileSync(path, 'utf8'))
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, root, undefined, configPath)
  const program = ts.createProgram({
    rootNames: blocks.map((b) => b.file),
    // A block without imports is still a module of its own: its names do not meet another block's.
    options: { ...options, noEmit: true, incremental: false, moduleDetection: ts.ModuleDetectionKind.Force },
  })
  // Messages name the entries as the README does, not by the copies' rewritten paths.
  const names = [...entryMap()].map(([name, source]) => [relative(outDir, source).replace(/\.ts$/, ''), name])
  const readable = (message: string) =>
    names.reduce((text, [path, name]) => text.replaceAll(`"${path}"`, name!), message)
  const result = new Map<Block, string[]>()
  for (const block of blocks) {
    const source = program.getSourceFile(block.file)
    if (!source) throw new Error(`${block.name}: its copy ${block.file} is not in the program`)
    const diagnostics = [
      ...program.getSyntacticDiagnostics(source),
      ...program.getSemanticDiagnostics(source),
    ]
    result.set(
      block,
      diagnostics.map((d) => {
        const { line } = d.start === undefined ? { line: 0 } : source.getLineAndCharacterOfPosition(d.start)
        // The block's first line is the one after the fence.
        return `${block.doc}:${block.line + 1 + line}: TS${d.code} ${readable(ts.flattenDiagnosticMessageText(d.messageText, '\n'))}`
      }),
    )
  }
  return result
}
