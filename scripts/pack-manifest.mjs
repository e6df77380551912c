#!/usr/bin/env node
/**
 * The package.json that `npm pack` and `npm publish` ship: what a user's install needs, none of the development
 * setup. `prepack` runs `clean` (after the build), `postpack` runs `restore`:
 *
 *   clean    keeps package.json as .cache/package.dev.json and writes the published manifest in its place: no
 *            scripts (the dev `prepare` would run on every install; npm 11 warns about scripts allowScripts does
 *            not cover), no devDependencies, overrides or allowScripts (the package has no runtime dependency).
 *   restore  puts the kept package.json back (a no-op when there is none).
 *
 * npm reads package.json again after prepack and tars the files on disk, so the tarball gets the clean one.
 * `publishedManifest` is the pure part.
 */
import {existsSync} from 'node:fs';
import {mkdir, readFile, rename, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';

/** Fields of the development package.json that are not published. */
export const devOnlyFields = ['scripts', 'devDependencies', 'overrides', 'allowScripts'];

export function publishedManifest(manifest) {
	return Object.fromEntries(Object.entries(manifest).filter(([key]) => !devOnlyFields.includes(key)));
}

const root = fileURLToPath(new URL('..', import.meta.url));
const manifestPath = join(root, 'package.json');
const kept = join(root, '.cache', 'package.dev.json');

async function clean() {
	if (existsSync(kept)) {
		// A pack that died before postpack: its package.json is the clean one, the kept one is the real one.
		await rename(kept, manifestPath);
	}

	const text = await readFile(manifestPath, 'utf8');
	await mkdir(join(root, '.cache'), {recursive: true});
	await writeFile(kept, text);
	const indent = /^[ \t]+/m.exec(text)?.[0] ?? '  ';
	await writeFile(`${manifestPath}.tmp`, `${JSON.stringify(publishedManifest(JSON.parse(text)), undefined, indent)}\n`);
	await rename(`${manifestPath}.tmp`, manifestPath);
}

async function restore() {
	if (existsSync(kept)) {
		await rename(kept, manifestPath);
	}
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const command = process.argv[2];
	if (command === 'clean') {
		await clean();
	} else if (command === 'restore') {
		await restore();
	} else {
		console.error('usage: node scripts/pack-manifest.mjs clean|restore');
		process.exit(2);
	}
}
