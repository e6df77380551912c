/**
 * source/kube/list-watch.ts says why it does not use client-node's informer, from a reading of one client-node
 * release. A different release may have closed those gaps: this fails until the header is checked against it
 * and names it.
 */
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {expect, test} from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

test("list-watch.ts's reasons were read in the installed client-node", () => {
	const installed = (JSON.parse(readFileSync(path.join(root, 'node_modules/@kubernetes/client-node/package.json'), 'utf8')) as {version: string}).version;
	const header = readFileSync(path.join(root, 'source/kube/list-watch.ts'), 'utf8').split('*/')[0]!;
	const named = /@kubernetes\/client-node (\d+\.\d+\.\d+)/.exec(header)?.[1];
	expect(named, 'the client-node version named in the header of source/kube/list-watch.ts').toBe(installed);
});
