export const figuresStart: string;
export const figuresEnd: string;
export function mb(bytes: number): string;
export function npmFigures(report: {filename: string; size: number; unpackedSize: number}): string;
export const archiveHeader: string;
export function archiveRow(name: string, archiveBytes: number, executableBytes: number | undefined): string;
export function quotedFigures(doc: string): string | undefined;
export function withFigures(doc: string, block: string): string;
