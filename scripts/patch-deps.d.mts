/** Types of patch-deps.mjs for the tests that use it. */
export type Hunk = {readonly old: string; readonly new: string};
export type PatchedFile = {readonly path: string; readonly hunks: readonly Hunk[]};
export function parsePatch(text: string): PatchedFile[];
export function applyHunks(text: string, hunks: readonly Hunk[], options?: {reverse?: boolean}): {text: string; applied: number};
export function patchFiles(): Array<{readonly name: string; readonly pkg: string; readonly version: string; readonly files: PatchedFile[]}>;
export function patchDependencies(options?: {check?: boolean}): string[];
