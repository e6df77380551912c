import {expect, it} from 'vitest';
import {helpText} from '../../source/cli/help-text.js';
import {scenarioNames} from '../../source/scenarios/catalog.js';

it('--help lists every demo scenario (the text is static so --help stays fast)', () => {
	for (const name of scenarioNames) {
		expect(helpText).toMatch(new RegExp(`[ ,]${name}[ ,(\\n]`));
	}
});
