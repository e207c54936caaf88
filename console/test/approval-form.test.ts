import { DOMWrapper, enableAutoUnmount, mount, type VueWrapper } from '@vue/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { createI18n } from 'vue-i18n';
import type { ApprovalRequest, Decision } from '../src/api/types';
import { en } from '../src/i18n/en';
import ApprovalForm from '../src/pages/chat/ApprovalForm.vue';

enableAutoUnmount(afterEach);

const schema = {
  type: 'object',
  required: ['path', 'mode'],
  properties: { path: { type: 'string' }, mode: { type: 'string', enum: ['read', 'write'] } },
};

function request(id: string, fields: Partial<ApprovalRequest> = {}): ApprovalRequest {
  return {
    tool_call_id: id,
    name: `tool_${id}`,
    args: { path: 'a.txt', mode: 'write' },
    source: 'builtin',
    reason: `Reason ${id}`,
    args_schema: schema,
    ...fields,
  };
}

function mountForm(approvals: ApprovalRequest[], props: { busy?: boolean; error?: string | null } = {}) {
  const i18n = createI18n({ legacy: false, locale: 'en', messages: { en } });
  return mount(ApprovalForm, {
    props: { approvals, ...props },
    global: { plugins: [i18n] },
    attachTo: document.body,
  });
}

type Form = VueWrapper<InstanceType<typeof ApprovalForm>>;

function call(wrapper: Form, id: string): DOMWrapper<Element> {
  const section = wrapper.find(`section[data-tool-call-id="${id}"]`);
  if (!section.exists()) throw new Error(`no section for ${id}`);
  return section;
}

function button(scope: Form | DOMWrapper<Element>, text: string): DOMWrapper<HTMLButtonElement> {
  const found = scope.findAll('button').find((item) => item.text() === text);
  if (!found) throw new Error(`no button "${text}"`);
  return found;
}

const sendButton = (wrapper: Form) => button(wrapper, 'Send decisions');
const sendDisabled = (wrapper: Form) => sendButton(wrapper).element.disabled;

async function choose(wrapper: Form, id: string, choice: 'Approve' | 'Reject' | 'Edit'): Promise<void> {
  await button(call(wrapper, id), choice).trigger('click');
}

async function editArgs(wrapper: Form, id: string, text: string): Promise<void> {
  await call(wrapper, id).find('textarea[aria-label="Arguments (JSON)"]').setValue(text);
}

function submitted(wrapper: Form): Record<string, Decision>[] {
  return (wrapper.emitted('submit') ?? []).map((args) => args[0] as Record<string, Decision>);
}

describe('ApprovalForm', () => {
  it('shows each call with its name, server, reason, arguments and the three choices', () => {
    const wrapper = mountForm([request('c1', { server: 'files-mcp', source: 'mcp' }), request('c2')]);
    expect(wrapper.find('h3').text()).toBe('Approve tool calls');
    const first = call(wrapper, 'c1');
    expect(first.find('.name').text()).toBe('tool_c1');
    expect(first.find('.server').text()).toBe('files-mcp');
    expect(first.find('.reason').text()).toBe('Reason c1');
    expect(JSON.parse(first.find('pre').text())).toEqual({ path: 'a.txt', mode: 'write' });
    expect(first.findAll('button').map((item) => item.text())).toEqual(['Approve', 'Reject', 'Edit']);
    expect(call(wrapper, 'c2').find('.server').exists()).toBe(false);
  });

  it('keeps the send button disabled until every call has a decision', async () => {
    const wrapper = mountForm([request('c1'), request('c2')]);
    expect(sendDisabled(wrapper)).toBe(true);
    await choose(wrapper, 'c1', 'Approve');
    expect(sendDisabled(wrapper)).toBe(true);
    await choose(wrapper, 'c2', 'Reject');
    expect(sendDisabled(wrapper)).toBe(false);
  });

  it('marks the choice made as pressed', async () => {
    const wrapper = mountForm([request('c1')]);
    await choose(wrapper, 'c1', 'Reject');
    const pressed = call(wrapper, 'c1')
      .findAll('button')
      .map((item) => [item.text(), item.attributes('aria-pressed')]);
    expect(pressed).toEqual([
      ['Approve', 'false'],
      ['Reject', 'true'],
      ['Edit', 'false'],
    ]);
  });

  it('emits nothing when the form is submitted before every call has a decision', async () => {
    const wrapper = mountForm([request('c1'), request('c2')]);
    await choose(wrapper, 'c1', 'Approve');
    await wrapper.find('form').trigger('submit');
    expect(wrapper.emitted('submit')).toBeUndefined();
  });

  it('sends approve for a call approved', async () => {
    const wrapper = mountForm([request('c1')]);
    await choose(wrapper, 'c1', 'Approve');
    await sendButton(wrapper).trigger('click');
    expect(submitted(wrapper)).toEqual([{ c1: { decision: 'approve' } }]);
  });

  it('sends a reject with the message typed, trimmed', async () => {
    const wrapper = mountForm([request('c1')]);
    await choose(wrapper, 'c1', 'Reject');
    await call(wrapper, 'c1')
      .find('textarea[aria-label="Message to the agent (optional)"]')
      .setValue(' Use b.txt ');
    await sendButton(wrapper).trigger('click');
    expect(submitted(wrapper)).toEqual([{ c1: { decision: 'reject', message: 'Use b.txt' } }]);
  });

  it('shows the remember box for approve and edit, not for reject', async () => {
    const wrapper = mountForm([request('c1')]);
    const rememberShown = () =>
      call(wrapper, 'c1').text().includes('Allow this tool for the rest of the conversation');
    expect(rememberShown()).toBe(false);
    await choose(wrapper, 'c1', 'Approve');
    expect(rememberShown()).toBe(true);
    await choose(wrapper, 'c1', 'Reject');
    expect(rememberShown()).toBe(false);
    await choose(wrapper, 'c1', 'Edit');
    expect(rememberShown()).toBe(true);
  });

  it('sends remember thread for an approve whose box is ticked', async () => {
    const wrapper = mountForm([request('c1')]);
    await choose(wrapper, 'c1', 'Approve');
    await call(wrapper, 'c1').find('input[type="checkbox"]').setValue(true);
    await sendButton(wrapper).trigger('click');
    expect(submitted(wrapper)).toEqual([{ c1: { decision: 'approve', remember: 'thread' } }]);
  });

  it('does not remember a reject chosen after ticking the box on approve', async () => {
    const wrapper = mountForm([request('c1')]);
    await choose(wrapper, 'c1', 'Approve');
    await call(wrapper, 'c1').find('input[type="checkbox"]').setValue(true);
    await choose(wrapper, 'c1', 'Reject');
    await sendButton(wrapper).trigger('click');
    expect(submitted(wrapper)).toEqual([{ c1: { decision: 'reject' } }]);
  });

  it('starts the edit box with the call arguments and sends the edited ones', async () => {
    const wrapper = mountForm([request('c1')]);
    await choose(wrapper, 'c1', 'Edit');
    const textarea = call(wrapper, 'c1').find<HTMLTextAreaElement>('textarea[aria-label="Arguments (JSON)"]');
    expect(JSON.parse(textarea.element.value)).toEqual({ path: 'a.txt', mode: 'write' });
    await editArgs(wrapper, 'c1', '{"path":"b.txt","mode":"read"}');
    await call(wrapper, 'c1').find('input[type="checkbox"]').setValue(true);
    expect(sendDisabled(wrapper)).toBe(false);
    await sendButton(wrapper).trigger('click');
    expect(submitted(wrapper)).toEqual([
      { c1: { decision: 'edit', args: { path: 'b.txt', mode: 'read' }, remember: 'thread' } },
    ]);
  });

  it('keeps the send button disabled while the edited JSON is invalid, saying why', async () => {
    const wrapper = mountForm([request('c1')]);
    await choose(wrapper, 'c1', 'Edit');
    expect(sendDisabled(wrapper)).toBe(false);

    await editArgs(wrapper, 'c1', '{"path": "b.txt",');
    expect(sendDisabled(wrapper)).toBe(true);
    expect(call(wrapper, 'c1').find('[role="alert"]').text()).toMatch(/^This is not valid JSON: .+/);

    await editArgs(wrapper, 'c1', '["b.txt"]');
    expect(sendDisabled(wrapper)).toBe(true);
    expect(call(wrapper, 'c1').find('[role="alert"]').text()).toBe('The arguments must be a JSON object.');

    await editArgs(wrapper, 'c1', '{"path":"b.txt"}');
    expect(sendDisabled(wrapper)).toBe(true);
    expect(call(wrapper, 'c1').find('[role="alert"]').text()).toBe('Missing required field "mode".');

    await editArgs(wrapper, 'c1', '{"path":3,"mode":"read"}');
    expect(sendDisabled(wrapper)).toBe(true);
    expect(call(wrapper, 'c1').find('[role="alert"]').text()).toBe('The field "path" must be string.');

    await editArgs(wrapper, 'c1', '{"path":"b.txt","mode":"delete"}');
    expect(sendDisabled(wrapper)).toBe(true);
    expect(call(wrapper, 'c1').find('[role="alert"]').text()).toBe(
      'The field "mode" must be "read" | "write".',
    );

    await wrapper.find('form').trigger('submit');
    expect(wrapper.emitted('submit')).toBeUndefined();

    await editArgs(wrapper, 'c1', '{"path":"b.txt","mode":"read"}');
    expect(call(wrapper, 'c1').find('[role="alert"]').exists()).toBe(false);
    expect(sendDisabled(wrapper)).toBe(false);
  });

  it('drops the edit problem once the call is approved instead', async () => {
    const wrapper = mountForm([request('c1')]);
    await choose(wrapper, 'c1', 'Edit');
    await editArgs(wrapper, 'c1', 'not json');
    expect(sendDisabled(wrapper)).toBe(true);
    await choose(wrapper, 'c1', 'Approve');
    expect(call(wrapper, 'c1').find('[role="alert"]').exists()).toBe(false);
    expect(sendDisabled(wrapper)).toBe(false);
    await sendButton(wrapper).trigger('click');
    expect(submitted(wrapper)).toEqual([{ c1: { decision: 'approve' } }]);
  });

  it('sends one decision per call', async () => {
    const wrapper = mountForm([request('c1'), request('c2'), request('c3')]);
    await choose(wrapper, 'c1', 'Approve');
    await choose(wrapper, 'c2', 'Reject');
    await choose(wrapper, 'c3', 'Edit');
    await editArgs(wrapper, 'c3', '{"path":"c.txt","mode":"read"}');
    await sendButton(wrapper).trigger('click');
    expect(submitted(wrapper)).toEqual([
      {
        c1: { decision: 'approve' },
        c2: { decision: 'reject' },
        c3: { decision: 'edit', args: { path: 'c.txt', mode: 'read' } },
      },
    ]);
  });

  it('does not submit the form when a choice button is clicked', async () => {
    const wrapper = mountForm([request('c1')]);
    await choose(wrapper, 'c1', 'Approve');
    await choose(wrapper, 'c1', 'Approve');
    expect(wrapper.emitted('submit')).toBeUndefined();
  });

  it('does not send again while busy', async () => {
    const wrapper = mountForm([request('c1')], { busy: true });
    await choose(wrapper, 'c1', 'Approve');
    await sendButton(wrapper).trigger('click');
    expect(wrapper.emitted('submit')).toBeUndefined();
    await wrapper.setProps({ busy: false });
    await sendButton(wrapper).trigger('click');
    expect(submitted(wrapper)).toEqual([{ c1: { decision: 'approve' } }]);
  });

  it('shows the error it is given', () => {
    const wrapper = mountForm([request('c1')], { error: 'The decision was refused.' });
    expect(wrapper.text()).toContain('The decision was refused.');
  });
});
