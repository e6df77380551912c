import {describe, expect, test} from 'vitest';
import type {NodeState} from '../../source/model/plan-tree.js';
import {createTheme, roleOf, type Role} from '../../source/ui/theme.js';

const states: NodeState[] = ['pending', 'running', 'retrying', 'succeeded', 'failed', 'inactive', 'unknown'];
const roles: Role[] = ['success', 'running', 'warning', 'error', 'muted', 'unknown', 'text', 'accent'];

describe('theme', () => {
	test('roles map to the basic palette: green, cyan, yellow, red, dim; text keeps the terminal colour', () => {
		const theme = createTheme({color: true, ascii: false});
		expect(states.map(s => theme.style(roleOf(s)))).toEqual([{dimColor: true}, {color: 'cyan'}, {color: 'yellow'}, {color: 'green'}, {color: 'red'}, {dimColor: true}, {color: 'magenta'}]);
		expect(theme.style('text')).toEqual({});
	});

	test('no colour: no role has any style', () => {
		const theme = createTheme({color: false, ascii: false});
		for (const role of roles) {
			expect(theme.style(role)).toEqual({});
		}
	});

	test('retrying and failed look different without colour', () => {
		const theme = createTheme({color: false, ascii: false});
		expect(theme.icon('retrying')).toBe('↻');
		expect(theme.icon('failed')).toBe('✖');
	});

	test('ASCII: icons and glyphs are ASCII, no spinner', () => {
		const theme = createTheme({color: true, ascii: true});
		expect(theme.spinner).toBe(false);
		const text = [...states.map(s => theme.icon(s)), ...Object.values(theme.glyphs)].join('');
		expect(text).toMatch(/^[\u0020-\u007E]*$/);
	});
});
