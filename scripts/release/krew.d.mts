/** Types of krew.mjs for the tests that use it. */
export type KrewArchive = {
	readonly target: {readonly os: string; readonly arch: string};
	readonly file: string;
	readonly sha256: string;
	readonly bin: string;
};
export function krewManifest(options: {version: string; homepage: string; baseUrl: string; description: string; archives: readonly KrewArchive[]; placeholder?: boolean}): string;
