import {
  API_KEY_PATTERN,
  ApiKeyDeriver,
  hashApiKey,
} from '../../../src/modules/auth/api-keys/api-key-deriver';

describe('ApiKeyDeriver', () => {
  const deriver = new ApiKeyDeriver(['server-secret-one']);

  it('derives the same key for the same user and request id, and different ones otherwise', () => {
    const a = deriver.derive('user-1', 'req-1');
    expect(a.key).toMatch(API_KEY_PATTERN);
    expect(a.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(deriver.derive('user-1', 'req-1')).toEqual(a);
    expect(deriver.derive('user-2', 'req-1').key).not.toBe(a.key);
    expect(deriver.derive('user-1', 'req-2').key).not.toBe(a.key);
    expect(new ApiKeyDeriver(['another-secret']).derive('user-1', 'req-1').key).not.toBe(a.key);
    expect(a.hash).toBe(hashApiKey(a.key));
    expect(a.prefix).toBe(a.key.slice(0, 12));
  });

  it('re-derives a key made before a secret rotation, and nothing for an unknown hash', () => {
    const old = deriver.derive('user-1', 'req-1');
    const rotated = new ApiKeyDeriver(['server-secret-two', 'server-secret-one']);
    expect(rotated.derive('user-1', 'req-1').key).not.toBe(old.key);
    expect(rotated.rederive('user-1', 'req-1', old.hash)?.key).toBe(old.key);
    expect(new ApiKeyDeriver(['server-secret-two']).rederive('user-1', 'req-1', old.hash)).toBeNull();
  });
});
