import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import ts from 'typescript'
import { type Block, entryMap, outDir, root } from './blocks'

/**
 * The `@example`s of the package's public API as blocks: what a host's editor shows on hover. The names each
 * entry of package.json "exports" exports are followed (syntactically: `export { a } from './x'`, `export *`,
 * and the entry's own declarations) to their declarations, and each declaration's `@example` tags are read, and
 * those of its members (`KitConfig.rpcMap`). An example is a fenced block inside the tag (```tsx … ```) or, when
 * it has none, the tag's whole text. Each is a module of its own, type-checked like the docs' blocks (not run:
 * an example is often a component or a call to make inside one).
 */
export function readExamples(entries = entryMap()): Block[] {
  const blocks: Block[] = []
  const seen = new Set<ts.Node>()
  const sources = new Map<string, ts.SourceFile>()
  const parse = (file: string) => {
    let source = sources.get(file)
    if (!source) {
      source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true)
      sources.set(file, source)
    }
    return source
  }
  const resolveModule = (from: string, spec: string) => {
    const base = resolve(dirname(from), spec)
    return ['.ts', '.tsx', '/index.ts', '/index.tsx']
      .map((ext) => `${base}${ext}`)
      .find((file) => existsSync(file))
  }

  const collect = (node: ts.Node, name: string) => {
    if (seen.has(node)) return
    seen.add(node)
    for (const tag of ts.getJSDocTags(node)) {
      if (tag.tagName.text !== 'example') continue
      const text = ts.getTextOfJSDocComment(tag.comment) ?? ''
      const fenced = /```(tsx?)?[^\n]*\n([\s\S]*?)```/.exec(text)
      const code = `${(fenced ? fenced[2]! : text).trimEnd()}\n`
      const source = node.getSourceFile()
      const file = relative(root, source.fileName)
      const line = source.getLineAndCharacterOfPosition(tag.getStart()).line + 1
      const lang = fenced?.[1] === 'ts' ? 'ts' : 'tsx'
      blocks.push({
        lang,
        doc: file,
        line,
        section: `@example of ${name}`,
        code,
        name: `${file}:${line} (@example of ${name})`,
        file: join(outDir, 'jsdoc', `${file.replace(/[^\w]+/g, '-')}-${line}.${lang}`),
      })
    }
    const members =
      ts.isInterfaceDeclaration(node) || ts.isClassDeclaration(node) || ts.isTypeLiteralNode(node)
        ? node.members
        : undefined
    for (const member of members ?? []) {
      const memberName = member.name && ts.isIdentifier(member.name) ? member.name.text : undefined
      if (memberName) collect(member, `${name}.${memberName}`)
    }
  }

  /** The declarations of `name` in `file`, following re-exports. */
  const follow = (file: string, name: string | '*', visited = new Set<string>()) => {
    const key = `${file}#${name}`
    if (visited.has(key)) return
    visited.add(key)
    const source = parse(file)
    for (const statement of source.statements) {
      if (ts.isExportDeclaration(statement)) {
        const target =
          statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)
            ? resolveModule(file, statement.moduleSpecifier.text)
            : undefined
        if (!target) continue
        const clause = statement.exportClause
        if (!clause) follow(target, name, visited)
        else if (ts.isNamedExports(clause)) {
          for (const element of clause.elements) {
            if (name === '*' || element.name.text === name)
              follow(target, (element.propertyName ?? element.name).text, visited)
          }
        }
        continue
      }
      const exported = ts.canHaveModifiers(statement)
        ? ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
        : false
      if (!exported) continue
      if (ts.isVariableStatement(statement)) {
        for (const declaration of statement.declarationList.declarations) {
          if (ts.isIdentifier(declaration.name) && (name === '*' || declaration.name.text === name)) {
            // A const's JSDoc sits on its statement.
            collect(statement, declaration.name.text)
          }
        }
      } else if (
        (ts.isFunctionDeclaration(statement) ||
          ts.isClassDeclaration(statement) ||
          ts.isInterfaceDeclaration(statement) ||
          ts.isTypeAliasDeclaration(statement)) &&
        statement.name &&
        (name === '*' || statement.name.text === name)
      ) {
        collect(statement, statement.name.text)
        if (ts.isTypeAliasDeclaration(statement) && ts.isTypeLiteralNode(statement.type))
          collect(statement.type, statement.name.text)
      }
    }
  }

  for (const source of new Set(entries.values())) follow(source, '*')
  return blocks.sort((a, b) => a.name.localeCompare(b.name))
}
