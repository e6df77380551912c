#!/usr/bin/env node
/**
 * The install figures the README quotes, measured rather than typed: the npm package's download and unpacked size
 * (`npm pack --dry-run`, which runs prepack: the same build a publish gets), and each release archive in release/
 * (or --release DIR, as `npm run release` left it) with the size of the executable inside. Prints Markdown.
 *
 *   node scripts/install-figures.mjs [--release DIR]
 */
import {spawnSync} from 'node:child_process';
import {existsSync, readdirSync, statSync} from 'node:fs';
import {join, resolve} from 'node:path';
import {fileURLToPath} from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const at = process.argv.indexOf('--release');
const release = resolve(root, at === -1 ? 'release' : process.argv[at + 1] ?? 'release');
const mb = bytes => `${(bytes / 1e6).toFixed(1)} MB`;

const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['npm'];
const packed = spawnSync(npm[0], [...npm.slice(1), 'pack', '--dry-run', '--json', '--loglevel=error'], {cwd: root, encoding: 'utf8'});
if (packed.status !== 0) {
	console.error(`install-figures: npm pack --dry-run failed:\n${packed.stderr}`);
	process.exit(1);
}

const [report] = JSON.parse(packed.stdout);
console.log(`npm package ${report.filename}: ${mb(report.size)} download, ${mb(report.unpackedSize)} unpacked, ${report.entryCount} files`);

const archives = existsSync(release)
	? readdirSync(release).filter(name => /^planwatch_.+_(\w+)_(\w+)\.(tar\.gz|zip)$/.test(name)).sort()
	: [];
if (archives.length === 0) {
	console.log(`(no release archives in ${release}: run npm run release first)`);
	process.exit(0);
}

console.log('\n| archive | download | executable |\n|---|---:|---:|');
for (const name of archives) {
	const [, os, arch] = /_(\w+)_(\w+)\.(?:tar\.gz|zip)$/.exec(name);
	const executable = join(release, `${os}_${arch}`, os === 'windows' ? 'kubectl-planwatch.exe' : 'kubectl-planwatch');
	console.log(`| \`${name}\` | ${mb(statSync(join(release, name)).size)} | ` +
		`${existsSync(executable) ? mb(statSync(executable).size) : '?'} |`);
}
