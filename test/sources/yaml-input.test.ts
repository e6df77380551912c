import {describe, expect, it} from 'vitest';
import {parseObjects} from '../../source/sources/file-source.js';
import {ExpansionLimitError, loadYamlDocuments} from '../../source/sources/yaml-input.js';

/** The classic "billion laughs": nine levels of ten aliases each, about 520 bytes for 10^9 leaves. */
function aliasBomb(): string {
	const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
	for (const [i, name] of ['b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'].entries()) {
		const previous = String.fromCharCode('a'.charCodeAt(0) + i);
		lines.push(`${name}: &${name} [${Array.from({length: 9}, () => `*${previous}`).join(',')}]`);
	}

	return lines.join('\n') + '\n';
}

describe('loadYamlDocuments', () => {
	it('reads documents, JSON and empty documents', () => {
		expect(loadYamlDocuments('a: 1\n---\n---\n{"b": [2]}\n')).toEqual([{a: 1}, null, {b: [2]}]);
	});

	it('keeps timestamps as strings (core schema)', () => {
		expect(loadYamlDocuments('t: 2021-06-10T10:02:37Z\n')).toEqual([{t: '2021-06-10T10:02:37Z'}]);
	});

	it('allows a few aliases', () => {
		expect(loadYamlDocuments('base: &b {x: 1}\none: *b\ntwo: *b\n')).toEqual([{base: {x: 1}, one: {x: 1}, two: {x: 1}}]);
	});

	it('rejects a billion-laughs bomb at once, by expanded size', () => {
		const bomb = aliasBomb();
		expect(bomb.length).toBeLessThan(600);
		const started = performance.now();
		expect(() => loadYamlDocuments(bomb)).toThrow(ExpansionLimitError);
		expect(() => loadYamlDocuments(bomb)).toThrow('YAML aliases expand to more than 1000000 nodes (an alias bomb?)');
		// Figure for the note, not an assertion: the check is one pass over the events.
		console.log(`alias bomb of ${bomb.length} bytes rejected in ${(performance.now() - started).toFixed(1)} ms`);
	});

	it('bounds the number of aliases and the expanded size, as given', () => {
		const many = `a: &a 1\nlist: [${Array.from({length: 11}, () => '*a').join(',')}]\n`;
		expect(() => loadYamlDocuments(many, {maxAliases: 10, maxAliasedNodes: 1000})).toThrow('more than 10 YAML aliases');
		expect(loadYamlDocuments(many, {maxAliases: 11, maxAliasedNodes: 1000})).toHaveLength(1);
		const wide = `a: &a [1,2,3,4,5,6,7,8,9]\nb: [*a, *a]\n`;
		// Each alias adds the sequence and its 9 items: 20 nodes.
		expect(() => loadYamlDocuments(wide, {maxAliases: 10, maxAliasedNodes: 19})).toThrow(ExpansionLimitError);
		expect(loadYamlDocuments(wide, {maxAliases: 10, maxAliasedNodes: 20})).toHaveLength(1);
	});

	it('anchors are per document', () => {
		expect(() => loadYamlDocuments('a: &a [1,2,3]\n---\nb: &a 1\nc: [*a, *a, *a]\n', {maxAliases: 10, maxAliasedNodes: 3})).not.toThrow();
	});
});

describe('-f with an alias bomb', () => {
	it('is one line of bad input', () => {
		expect(() => parseObjects(aliasBomb(), 'bomb.yaml')).toThrow('bomb.yaml: rejected: YAML aliases expand to more than 1000000 nodes (an alias bomb?)');
	});
});
