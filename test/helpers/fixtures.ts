import {readFileSync} from 'node:fs';
import {fileURLToPath} from 'node:url';
import {loadAllYaml} from '@kubernetes/client-node';
import type {KubeObject} from '../../source/core/kube-object.js';

/** test/fixtures as an absolute path. */
export const fixturesDir = fileURLToPath(new URL('../fixtures/', import.meta.url));

/** The text of a fixture, by path relative to test/fixtures (e.g. `kudo/plan-status-….txt`). */
export function fixtureText(relativePath: string): string {
	return readFileSync(fixturesDir + relativePath, 'utf8');
}

/** Every object in a YAML file, with `…List` kinds flattened into their items. */
export function loadObjectsFromFile(path: string): KubeObject[] {
	const docs = loadAllYaml(readFileSync(path, 'utf8')) as unknown[];
	const out: KubeObject[] = [];
	for (const doc of docs) {
		if (typeof doc !== 'object' || doc === null) {
			continue;
		}

		const o = doc as KubeObject;
		if (typeof o.kind === 'string' && o.kind.endsWith('List') && Array.isArray(o['items'])) {
			out.push(...(o['items'] as KubeObject[]));
		} else {
			out.push(o);
		}
	}

	return out;
}

/** Every object in a fixture (relative to test/fixtures). */
export function loadFixture(relativePath: string): KubeObject[] {
	return loadObjectsFromFile(fixturesDir + relativePath);
}

/** The single object of a fixture; throws if the file holds none or several. */
export function loadFixtureObject(relativePath: string): KubeObject {
	const objects = loadFixture(relativePath);
	if (objects.length !== 1) {
		throw new Error(`${relativePath}: expected one object, found ${objects.length}`);
	}

	return objects[0]!;
}
