/** Content helpers and URI templates: the shapes they build and the mistakes they refuse. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { audio, compileUriTemplate, embeddedResource, image, resourceContents, resourceLink, toBase64 } from '../../src/index.js';

describe('content helpers', () => {
  it('bytes become base64; base64 strings pass; anything else is refused', () => {
    assert.equal(toBase64(new Uint8Array([1, 2, 3])), 'AQID');
    assert.equal(toBase64('AQID'), 'AQID');
    assert.throws(() => toBase64('not base64!'), /standard padded base64/);
    assert.throws(() => toBase64('AQI'), /standard padded base64/);
  });

  it('image and audio need a media type', () => {
    assert.deepEqual(image(new Uint8Array([1]), 'image/png'), { type: 'image', data: 'AQ==', mimeType: 'image/png' });
    assert.deepEqual(audio('AQ==', 'audio/wav', { annotations: { priority: 1 } }), { type: 'audio', data: 'AQ==', mimeType: 'audio/wav', annotations: { priority: 1 } });
    assert.throws(() => image('AQ==', 'png'), /media type/);
  });

  it('resource contents need a uri and exactly one of text or blob', () => {
    assert.deepEqual(embeddedResource({ uri: 'test://a', mimeType: 'text/plain', text: 'hi' }), { type: 'resource', resource: { uri: 'test://a', text: 'hi', mimeType: 'text/plain' } });
    assert.deepEqual(resourceContents({ uri: 'test://b', blob: new Uint8Array([255]) }), { uri: 'test://b', blob: '/w==' });
    assert.throws(() => resourceContents({ uri: '', text: 'x' }), /non-empty uri/);
    assert.throws(() => resourceContents({ uri: 'test://c' } as never), /exactly one of text or blob/);
    assert.throws(() => resourceContents({ uri: 'test://c', text: 'x', blob: 'AQ==' } as never), /exactly one of text or blob/);
  });

  it('resource links need uri and name, and a non-negative integer size', () => {
    assert.deepEqual(resourceLink({ uri: 'test://a', name: 'a', size: 3 }), { type: 'resource_link', uri: 'test://a', name: 'a', size: 3 });
    assert.throws(() => resourceLink({ uri: 'test://a', name: '' }), /name/);
    assert.throws(() => resourceLink({ uri: 'test://a', name: 'a', size: -1 }), /size/);
  });
});

describe('URI templates', () => {
  it('{var} matches one decoded segment, {+var} anything', () => {
    const t = compileUriTemplate('test://template/{id}/data');
    assert.deepEqual(t.match('test://template/a%2Fb/data'), { id: 'a/b' });
    assert.equal(t.match('test://template/a/b/data'), undefined);
    assert.equal(t.match('test://template//data'), undefined);
    assert.equal(t.match('test://template/%E0%A4%A/data'), undefined);
    assert.deepEqual(compileUriTemplate('file:///{+path}').match('file:///a/b.txt'), { path: 'a/b.txt' });
  });

  it('unsupported operators, repeated names and bad braces are refused at definition', () => {
    assert.throws(() => compileUriTemplate('test://x{?q}'), /not supported/);
    assert.throws(() => compileUriTemplate('test://{a}/{a}'), /appears twice/);
    assert.throws(() => compileUriTemplate('test://{a'), /unbalanced/);
    assert.throws(() => compileUriTemplate(''), /non-empty/);
  });
});
