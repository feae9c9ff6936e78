export interface PackageReport {
  package: string
  engines: string | null
  installScripts: string[]
  undeclared: { package: string; importedBy: string[] }[]
  unused: string[]
  enginesConflicts: { package: string; node: string; via: string }[]
  notes: {
    dependencyInstallScripts: { package: string; scripts: string[]; via: string }[]
    notFound: string[]
  }
}
export declare function packageOf(specifier: string): string | undefined
export declare function specifiersOf(text: string): string[]
export declare function checkPackage(dir: string, from?: string): PackageReport
export declare function isClean(report: PackageReport): boolean
export declare function formatReport(report: PackageReport): string
export declare function main(argv: string[]): number
