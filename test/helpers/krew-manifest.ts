/**
 * krew's own checks of a plugin manifest (github.com/kubernetes-sigs/krew internal/index/validation/validate.go:
 * apiVersion, kind, a safe name equal to the file's, a one-line shortDescription, a semver version, and per
 * platform uri, sha256 pattern, bin, files with from/to, an os/arch selector), plus what `krew install
 * --archive` then needs: the archive's sha256 is the manifest's, and `bin` and every `files[].from` are in it.
 */
import {createHash} from 'node:crypto';
import {loadYaml} from '@kubernetes/client-node';
import {listArchive} from './archive-listing.js';

type Platform = {
	uri?: string;
	sha256?: string;
	bin?: string;
	files?: Array<{from?: string; to?: string}>;
	selector?: {matchLabels?: Record<string, string>; matchExpressions?: Array<{key: string}>};
};

type Manifest = {
	apiVersion?: string;
	kind?: string;
	metadata?: {name?: string};
	spec?: {version?: string; shortDescription?: string; homepage?: string; platforms?: Platform[]};
};

const semver = /^v(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[\da-z-]+(?:\.[\da-z-]+)*)?(?:\+[\da-z-]+(?:\.[\da-z-]+)*)?$/i;
const windowsForbidden = new Set(['CON', 'PRN', 'AUX', 'NUL', ...Array.from({length: 9}, (_, i) => [`COM${i + 1}`, `LPT${i + 1}`]).flat()]);

/** Every problem found; [] = valid. `archives`: file name (the uri's last segment) → its bytes. */
export function validateKrewManifest(text: string, name: string, archives: ReadonlyMap<string, Buffer>): string[] {
	const problems: string[] = [];
	const manifest = loadYaml(text) as Manifest;
	if (manifest.apiVersion !== 'krew.googlecontainertools.github.com/v1alpha2') {
		problems.push(`apiVersion ${String(manifest.apiVersion)} is not supported`);
	}

	if (manifest.kind !== 'Plugin') {
		problems.push(`kind ${String(manifest.kind)} is not Plugin`);
	}

	if (!/^[\w-]+$/.test(name) || windowsForbidden.has(name.toUpperCase())) {
		problems.push(`plugin name ${name} is not allowed`);
	}

	if (manifest.metadata?.name !== name) {
		problems.push(`plugin should be named ${name}, not ${String(manifest.metadata?.name)}`);
	}

	const spec = manifest.spec ?? {};
	if (!spec.shortDescription) {
		problems.push('should have a short description');
	} else if (/[\r\n]/.test(spec.shortDescription)) {
		problems.push('should not have line breaks in short description');
	}

	if (!spec.version || !semver.test(spec.version)) {
		problems.push(`version ${String(spec.version)} is not a semver starting with v`);
	}

	const platforms = spec.platforms ?? [];
	if (platforms.length === 0) {
		problems.push('should have a platform specified');
	}

	for (const [index, platform] of platforms.entries()) {
		const where = `platform ${index}`;
		if (!platform.uri) {
			problems.push(`${where}: uri has to be set`);
		}

		if (!/^[a-f\d]{64}$/.test(platform.sha256 ?? '')) {
			problems.push(`${where}: sha256 ${String(platform.sha256)} is not valid`);
		}

		if (!platform.bin) {
			problems.push(`${where}: bin has to be set`);
		}

		if (platform.files?.length === 0 || platform.files?.some(f => !f.from || !f.to)) {
			problems.push(`${where}: files need from and to`);
		}

		const labels = platform.selector?.matchLabels ?? {};
		const keys = [...Object.keys(labels), ...(platform.selector?.matchExpressions ?? []).map(e => e.key)];
		if (keys.length === 0 || keys.some(k => k !== 'os' && k !== 'arch')) {
			problems.push(`${where}: the selector must use os and arch`);
		}

		const file = platform.uri?.split('/').at(-1) ?? '';
		const archive = archives.get(file);
		if (!archive) {
			problems.push(`${where}: no archive ${file}`);
			continue;
		}

		if (createHash('sha256').update(archive).digest('hex') !== platform.sha256) {
			problems.push(`${where}: sha256 is not the sha256 of ${file}`);
		}

		const names = new Set(listArchive(file, archive).map(e => e.name.replace(/^\.\//, '')));
		for (const wanted of [platform.bin ?? '', ...(platform.files ?? []).map(f => f.from ?? '')]) {
			if (!names.has(wanted.replace(/^\.\//, ''))) {
				problems.push(`${where}: ${wanted} is not in ${file}`);
			}
		}
	}

	return problems;
}
