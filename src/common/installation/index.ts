export { installationDir } from './installation-dir.js';
