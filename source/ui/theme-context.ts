import {createContext, useContext} from 'react';
import {createTheme, type Theme} from './theme.js';

/** The theme of the running app; components read it with `useTheme()`. */
export const ThemeContext = createContext<Theme>(createTheme({color: true, ascii: false}));

export function useTheme(): Theme {
	return useContext(ThemeContext);
}
