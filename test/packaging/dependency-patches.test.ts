/**
 * patches/: every patch is for the installed version of its package, is applied in node_modules (npm ci runs
 * scripts/patch-deps.mjs; so the tests and the bundle run the patched code), and applies to the unpatched
 * files. When a dependency is upgraded or changes under a patch, these fail: redo the patch or drop it.
 */
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, test} from 'vitest';
import {applyHunks, parsePatch, patchDependencies, patchFiles} from '../../scripts/patch-deps.mjs';

const root = path.resolve(import.meta.dirname, '../..');

describe('dependency patches', () => {
	test('there is a patch, for the installed version, applied in node_modules', () => {
		const patches = patchFiles();
		expect(patches.map(p => p.name)).toEqual(expect.arrayContaining(['ink+8.0.0.patch', 'string-width+8.3.0.patch']));
		for (const patch of patches) {
			const installed = JSON.parse(readFileSync(path.join(root, 'node_modules', patch.pkg, 'package.json'), 'utf8')) as {version: string};
			expect(installed.version, `patches/${patch.name}`).toBe(patch.version);
		}

		expect(() => patchDependencies({check: true})).not.toThrow();
	});

	test('package.json pins every patched package to its patch\'s version, and the lockfile holds no other copy', () => {
		// A range (`^8.0.0`) lets a routine lockfile refresh pick up a release the patch does not fit, and
		// `npm install` then stops in scripts/patch-deps.mjs; a second copy elsewhere in the tree would run unpatched.
		const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {devDependencies: Record<string, string>};
		const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {packages: Record<string, {version?: string; devDependencies?: Record<string, string>}>};
		for (const patch of patchFiles()) {
			expect(manifest.devDependencies[patch.pkg], `package.json devDependencies.${patch.pkg}`).toBe(patch.version);
			expect(lock.packages['']!.devDependencies![patch.pkg], `package-lock.json root devDependencies.${patch.pkg}`).toBe(patch.version);
			const copies = Object.entries(lock.packages).filter(([where]) => where === `node_modules/${patch.pkg}` || where.endsWith(`/node_modules/${patch.pkg}`));
			expect(copies.map(([where, entry]) => `${where}@${entry.version}`), `copies of ${patch.pkg} in package-lock.json`).toEqual([`node_modules/${patch.pkg}@${patch.version}`]);
		}
	});

	test('each file goes back to the original and patches forward again to the same text', () => {
		for (const patch of patchFiles()) {
			for (const file of patch.files) {
				const patched = readFileSync(path.join(root, file.path), 'utf8');
				const original = applyHunks(patched, file.hunks, {reverse: true});
				expect(original.applied, file.path).toBe(file.hunks.length);
				const again = applyHunks(original.text, file.hunks);
				expect(again.applied).toBe(file.hunks.length);
				expect(again.text).toBe(patched);
				// Applying twice changes nothing.
				expect(applyHunks(patched, file.hunks)).toEqual({text: patched, applied: 0});
			}
		}
	});

	test('a hunk whose text is gone (the dependency changed) is an error, not a silent skip', () => {
		const [file] = parsePatch(['--- a/x.js', '+++ b/x.js', '@@ -1,3 +1,3 @@', ' const a = 1;', '-const b = 2;', '+const b = 3;', ' const c = 4;', ''].join('\n'));
		expect(file!.path).toBe('x.js');
		expect(applyHunks('const a = 1;\nconst b = 2;\nconst c = 4;\n', file!.hunks).text).toBe('const a = 1;\nconst b = 3;\nconst c = 4;\n');
		expect(() => applyHunks('const a = 1;\nconst b = 5;\nconst c = 4;\n', file!.hunks)).toThrow(/hunk 1 matches neither/);
	});
});
