export { readOnce, withReadOnceScope } from './read-once-scope.js';
