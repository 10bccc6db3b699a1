import { expect, test } from '@playwright/test';
import { createEmulator } from 'onboarding-emulator';
import { FIELD_VALUES, HostedPages, PAGE_TEST_IDS } from 'onboarding-emulator/playwright';

const em = createEmulator({ seed: 1, clock: { mode: 'frozen', start: '2026-10-05T09:00:00Z' } });
const headers = { Authorization: 'Bearer hrs_test_acme_owner', 'Content-Type': 'application/json' };
let url;
test.beforeAll(async () => {
  ({ url } = await em.start(0));
});
test.afterAll(() => em.close());

async function onboarding(reference) {
  const res = await fetch(`${url}/v1/onboardings`, {
    method: 'POST', headers,
    body: JSON.stringify({
      reference,
      employee: { first_name: 'Sem', last_name: 'de Groot', email: `${reference}@example.test` },
      employment: { position: 'Cashier', start_date: '2026-12-01', location_id: 'loc_acme_amsterdam', template_id: 'tpl_acme_standard', hours_per_week: 24, hourly_wage_cents: 1400 },
    }),
  });
  expect(res.status).toBe(201);
  return res.json();
}

test('the employee sends the form through the helpers', async ({ page }) => {
  const { id, hosted_url } = await onboarding('pw-1');
  const employee = new HostedPages(page);
  await employee.open(hosted_url);
  await employee.enterCode();
  await employee.completeDetails();
  await expect(page.getByTestId('submitted-status')).toBeVisible();
  const after = await (await fetch(`${url}/v1/onboardings/${id}`, { headers })).json();
  expect(after.status).toBe('in_review');
});

test('a wrong IBAN is refused at its field with the catalogue\'s message', async ({ page }) => {
  expect(PAGE_TEST_IDS['field-error-iban']).toBeDefined();
  const mistake = FIELD_VALUES.iban.invalid.find((m) => m.note.includes('mod-97'));
  const employee = new HostedPages(page);
  await employee.open((await onboarding('pw-2')).hosted_url);
  await employee.enterCode();
  await employee.fillDetails({ iban: mistake.value });
  await employee.upload();
  await expect(employee.submitDetails()).rejects.toMatchObject({ fields: { iban: mistake.message } });
  await expect(page.getByTestId('field-error-iban')).toHaveText(mistake.message);
});
