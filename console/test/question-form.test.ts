import { enableAutoUnmount, mount, type VueWrapper } from '@vue/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { createI18n } from 'vue-i18n';
import type { Answers, Question } from '../src/api/types';
import { en } from '../src/i18n/en';
import QuestionForm from '../src/pages/chat/QuestionForm.vue';
import { question } from './questions.fixture';

enableAutoUnmount(afterEach);

const options = [
  { label: 'Red', value: 'red', description: 'Warm' },
  { label: 'Green', value: 'green' },
  { label: 'Blue', value: 'blue' },
];

function mountForm(questions: Question[], props: { busy?: boolean; error?: string | null } = {}) {
  const i18n = createI18n({ legacy: false, locale: 'en', messages: { en } });
  return mount(QuestionForm, {
    props: { questions, ...props },
    global: { plugins: [i18n] },
    attachTo: document.body,
  });
}

type Form = VueWrapper<InstanceType<typeof QuestionForm>>;

function fieldset(wrapper: Form, id: string) {
  const found = wrapper.findAll('fieldset').find((set) => set.find('legend').text() === `Question ${id}?`);
  if (!found) throw new Error(`no fieldset for ${id}`);
  return found;
}

/** The input of the option labelled `label` (or "Other") in the question's fieldset. */
function option(wrapper: Form, id: string, label: string) {
  const found = fieldset(wrapper, id)
    .findAll('label.option')
    .find((item) => item.find('span').text().startsWith(label));
  if (!found) throw new Error(`no option ${label} in ${id}`);
  return found.find('input');
}

async function submit(wrapper: Form): Promise<void> {
  const button = wrapper.findAll('button').find((item) => item.text() === 'Submit answers');
  if (!button) throw new Error('no submit button');
  await button.trigger('click');
}

function submitted(wrapper: Form): Answers[] {
  return (wrapper.emitted('submit') ?? []).map((args) => args[0] as Answers);
}

describe('QuestionForm', () => {
  it('shows the title, each question, its options with their descriptions, and the submit button', () => {
    const wrapper = mountForm([question('a', { options }), question('b')]);
    expect(wrapper.find('h3').text()).toBe('The agent asks');
    expect(wrapper.findAll('legend').map((legend) => legend.text())).toEqual(['Question a?', 'Question b?']);
    const labels = fieldset(wrapper, 'a')
      .findAll('label.option')
      .map((label) => label.text());
    expect(labels).toEqual(['Red Warm', 'Green', 'Blue']);
    expect(fieldset(wrapper, 'a').findAll('input[type="radio"]')).toHaveLength(3);
    expect(fieldset(wrapper, 'b').find('textarea').exists()).toBe(true);
    expect(wrapper.findAll('button').map((button) => button.text())).toContain('Submit answers');
  });

  it('submits the option picked for a single-select question', async () => {
    const wrapper = mountForm([question('a', { options })]);
    await option(wrapper, 'a', 'Blue').setValue(true);
    await option(wrapper, 'a', 'Green').setValue(true);
    await submit(wrapper);
    expect(submitted(wrapper)).toEqual([{ a: 'green' }]);
  });

  it('submits the typed text of a free-text question, trimmed', async () => {
    const wrapper = mountForm([question('a')]);
    await fieldset(wrapper, 'a').find('textarea').setValue('  my answer ');
    await submit(wrapper);
    expect(submitted(wrapper)).toEqual([{ a: 'my answer' }]);
  });

  it('submits every box ticked of a multi-select question, without the ones unticked again', async () => {
    const wrapper = mountForm([question('a', { options, multi_select: true })]);
    expect(fieldset(wrapper, 'a').findAll('input[type="checkbox"]')).toHaveLength(3);
    await option(wrapper, 'a', 'Red').setValue(true);
    await option(wrapper, 'a', 'Blue').setValue(true);
    await option(wrapper, 'a', 'Green').setValue(true);
    await option(wrapper, 'a', 'Red').setValue(false);
    await submit(wrapper);
    expect(submitted(wrapper)).toEqual([{ a: ['blue', 'green'] }]);
  });

  it('shows the other text box only once other is chosen, and submits its text', async () => {
    const wrapper = mountForm([question('a', { options, allow_other: true })]);
    const set = () => fieldset(wrapper, 'a');
    expect(set().find('input[type="text"], input:not([type])').exists()).toBe(false);
    await option(wrapper, 'a', 'Red').setValue(true);
    await option(wrapper, 'a', 'Other').setValue(true);
    const other = set().find('input[aria-label="Question a? — Your answer"]');
    expect(other.exists()).toBe(true);
    await other.setValue(' teal ');
    await submit(wrapper);
    expect(submitted(wrapper)).toEqual([{ a: 'teal' }]);
  });

  it('submits the option picked after other was chosen first', async () => {
    const wrapper = mountForm([question('a', { options, allow_other: true })]);
    await option(wrapper, 'a', 'Other').setValue(true);
    await fieldset(wrapper, 'a').find('input[aria-label="Question a? — Your answer"]').setValue('teal');
    await option(wrapper, 'a', 'Red').setValue(true);
    expect(fieldset(wrapper, 'a').find('input[aria-label="Question a? — Your answer"]').exists()).toBe(false);
    await submit(wrapper);
    expect(submitted(wrapper)).toEqual([{ a: 'red' }]);
  });

  it('adds the other text to the boxes ticked of a multi-select question', async () => {
    const wrapper = mountForm([question('a', { options, multi_select: true, allow_other: true })]);
    await option(wrapper, 'a', 'Green').setValue(true);
    await option(wrapper, 'a', 'Other').setValue(true);
    await fieldset(wrapper, 'a').find('input[aria-label="Question a? — Your answer"]').setValue('teal');
    await submit(wrapper);
    expect(submitted(wrapper)).toEqual([{ a: ['green', 'teal'] }]);
  });

  it('emits nothing and marks the unanswered question when one is left unanswered', async () => {
    const wrapper = mountForm([question('a', { options }), question('b')]);
    await option(wrapper, 'a', 'Red').setValue(true);
    await submit(wrapper);
    expect(wrapper.emitted('submit')).toBeUndefined();
    const alerts = wrapper.findAll('[role="alert"]');
    expect(alerts.map((alert) => alert.text())).toEqual(['Answer this question.']);
    expect(fieldset(wrapper, 'b').find('[role="alert"]').text()).toBe('Answer this question.');
    expect(fieldset(wrapper, 'a').find('[role="alert"]').exists()).toBe(false);
  });

  it('emits nothing when other is chosen but left empty', async () => {
    const wrapper = mountForm([question('a', { options, allow_other: true })]);
    await option(wrapper, 'a', 'Other').setValue(true);
    await submit(wrapper);
    expect(wrapper.emitted('submit')).toBeUndefined();
    expect(fieldset(wrapper, 'a').text()).toContain('Answer this question.');
  });

  it('clears the marks and submits once the missing answer is given', async () => {
    const wrapper = mountForm([question('a', { options }), question('b')]);
    await submit(wrapper);
    expect(wrapper.findAll('[role="alert"]')).toHaveLength(2);
    await option(wrapper, 'a', 'Blue').setValue(true);
    await fieldset(wrapper, 'b').find('textarea').setValue('yes');
    await submit(wrapper);
    expect(wrapper.text()).not.toContain('Answer this question.');
    expect(submitted(wrapper)).toEqual([{ a: 'blue', b: 'yes' }]);
  });

  it('submits answers to several questions at once', async () => {
    const wrapper = mountForm([
      question('a', { options }),
      question('b', { options, multi_select: true }),
      question('c'),
    ]);
    await option(wrapper, 'a', 'Red').setValue(true);
    await option(wrapper, 'b', 'Red').setValue(true);
    await option(wrapper, 'b', 'Blue').setValue(true);
    await fieldset(wrapper, 'c').find('textarea').setValue('free');
    await submit(wrapper);
    expect(submitted(wrapper)).toEqual([{ a: 'red', b: ['red', 'blue'], c: 'free' }]);
  });

  it('keeps the radio groups of two questions apart', async () => {
    const wrapper = mountForm([question('a', { options }), question('b', { options })]);
    await option(wrapper, 'a', 'Red').setValue(true);
    await option(wrapper, 'b', 'Green').setValue(true);
    expect((option(wrapper, 'a', 'Red').element as HTMLInputElement).checked).toBe(true);
    await submit(wrapper);
    expect(submitted(wrapper)).toEqual([{ a: 'red', b: 'green' }]);
  });

  it('does not submit again while busy', async () => {
    const wrapper = mountForm([question('a')], { busy: true });
    await fieldset(wrapper, 'a').find('textarea').setValue('answer');
    await submit(wrapper);
    expect(wrapper.emitted('submit')).toBeUndefined();
    await wrapper.setProps({ busy: false });
    await submit(wrapper);
    expect(submitted(wrapper)).toEqual([{ a: 'answer' }]);
  });

  it('shows the error it is given', () => {
    const wrapper = mountForm([question('a')], { error: 'The run is no longer waiting.' });
    expect(wrapper.text()).toContain('The run is no longer waiting.');
  });
});
