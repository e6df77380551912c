#!/usr/bin/env node
/**
 * The install figures docs/install.md quotes, measured rather than typed: the npm package's download and unpacked size
 * (`npm pack --dry-run`, which runs prepack: the same build a publish gets), and each release archive in release/
 * (or --release DIR, as `npm run release` left it) with the size of the executable inside. Prints Markdown; --write
 * also puts it between the install-figures markers of docs/install.md (without archives, the table there is kept).
 *
 *   node scripts/install-figures.mjs [--release DIR] [--write]
 */
import {spawnSync} from 'node:child_process';
import {existsSync, readFileSync, readdirSync, statSync, writeFileSync} from 'node:fs';
import {join, resolve} from 'node:path';
import {fileURLToPath} from 'node:url';
import {archiveHeader, archiveRow, npmFigures, quotedFigures, withFigures} from './release/figures.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const at = process.argv.indexOf('--release');
const release = resolve(root, at === -1 ? 'release' : process.argv[at + 1] ?? 'release');
const write = process.argv.includes('--write');
const docPath = join(root, 'docs', 'install.md');

const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['npm'];
const packed = spawnSync(npm[0], [...npm.slice(1), 'pack', '--dry-run', '--json', '--loglevel=error'], {cwd: root, encoding: 'utf8'});
if (packed.status !== 0) {
	console.error(`install-figures: npm pack --dry-run failed:\n${packed.stderr}`);
	process.exit(1);
}

const [report] = JSON.parse(packed.stdout);
const lines = [npmFigures(report)];

const archives = existsSync(release)
	? readdirSync(release).filter(name => /^planwatch_.+_(\w+)_(\w+)\.(tar\.gz|zip)$/.test(name)).sort()
	: [];
if (archives.length === 0) {
	console.error(`install-figures: no release archives in ${release} (run npm run release first)`);
} else {
	lines.push('', archiveHeader);
	for (const name of archives) {
		const [, os, arch] = /_(\w+)_(\w+)\.(?:tar\.gz|zip)$/.exec(name);
		const executable = join(release, `${os}_${arch}`, os === 'windows' ? 'kubectl-planwatch.exe' : 'kubectl-planwatch');
		lines.push(archiveRow(name, statSync(join(release, name)).size, existsSync(executable) ? statSync(executable).size : undefined));
	}
}

console.log(lines.join('\n'));
if (write) {
	const doc = readFileSync(docPath, 'utf8');
	// Without archives to measure, the table already quoted stays: only the npm line is new.
	const kept = archives.length === 0 ? (quotedFigures(doc) ?? '').split('\n').slice(1).join('\n') : '';
	writeFileSync(docPath, withFigures(doc, archives.length === 0 ? `${lines[0]}${kept ? `\n${kept}` : ''}` : lines.join('\n')));
	console.error('install-figures: docs/install.md updated');
}
