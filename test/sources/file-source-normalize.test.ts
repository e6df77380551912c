import {expect, it} from 'vitest';
import {parseObjects} from '../../source/sources/file-source.js';

it('turns YAML dates into the API server\'s strings in place, without letting a __proto__ key reach Object.prototype', () => {
	const text = [
		'apiVersion: kudo.dev/v1beta1',
		'kind: Instance',
		'metadata:',
		'  name: a',
		'  creationTimestamp: 2021-06-10T09:14:02Z',
		'__proto__:',
		'  polluted: 2021-06-10T09:14:02Z',
		'---',
		'...',
		'apiVersion: kudo.dev/v1beta1',
		'kind: Instance',
		'metadata: {name: b}',
		'',
	].join('\n');
	const objects = parseObjects(text, 'x.yaml');
	expect(objects.map(o => o.metadata?.name)).toEqual(['a', 'b']);
	expect(objects[0]!.metadata?.['creationTimestamp']).toBe('2021-06-10T09:14:02Z');
	expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
});
