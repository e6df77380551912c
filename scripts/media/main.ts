/**
 * Writes media/*.svg (see shots.ts). `--check`: write nothing, exit 1 if a file is missing or differs.
 * Files no shot produces are left alone.
 */
import {readFile, writeFile} from 'node:fs/promises';
import {renderMedia} from './shots.js';

/** `directory`: media/ with a trailing slash (this module runs from a bundle elsewhere, so it is told). */
export async function main(args: readonly string[], directory: string): Promise<number> {
	const check = args.includes('--check');
	const files = await renderMedia();
	let stale = 0;
	for (const [name, content] of files) {
		const path = `${directory}${name}`;
		const current = await readFile(path, 'utf8').catch(() => undefined);
		const state = current === content ? 'unchanged' : current === undefined ? 'new' : 'changed';
		if (state !== 'unchanged') {
			stale++;
			if (!check) {
				await writeFile(path, content);
			}
		}

		console.log(`media/${name.padEnd(40)} ${(Buffer.byteLength(content) / 1024).toFixed(1).padStart(6)} KiB  ${state}`);
	}

	if (check && stale > 0) {
		console.error(`${stale} file(s) out of date: run npm run media`);
		return 1;
	}

	return 0;
}
