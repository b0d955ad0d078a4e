import { TRANSPORT_ERRORS, type CatalogueEntry, type Lang } from './errors-transport';

// The one error catalogue. Server answers carry `code` and `msg` (in the request's lang); client-side
// validation uses the same keys, so a rule broken in the form and on the server reads the same.
// Codes are stable: never renumber, only add. code < 0 means the session is invalid
// (docs/product.md#error-catalogue).

export type { CatalogueEntry, Lang };

export const ERRORS = {
  // Session and transport (in errors-transport.ts, which the client loads on every screen)
  ...TRANSPORT_ERRORS,

  // General input
  required: { code: 1001, en: 'Required fields cannot be empty.', cn: '必填项不能为空。' },
  too_long: { code: 1002, en: 'Text cannot be longer than {n} characters.', cn: '文字长度不能超过 {n} 个字符。' },
  invalid_request: { code: 1003, en: 'The request is not valid.', cn: '请求无效。' },
  too_many_requests: { code: 1004, en: 'Too many requests. Please wait a moment.', cn: '请求过于频繁，请稍候再试。' },
  guest_forbidden: { code: 1005, en: 'Guests cannot perform this operation. Please log in.', cn: '游客无法执行此操作，请先登录。' },
  risk_forbidden: { code: 1006, en: 'This account is under risk control and cannot perform the operation.', cn: '风险账户无法执行此操作。' },
  idempotency_mismatch: { code: 1007, en: 'This request was already sent with different details.', cn: '该请求已使用不同的内容提交过。' },
  terms_required: { code: 1010, en: 'Please read and agree to the terms first.', cn: '请先阅读并同意协议。' },
  invalid_number: { code: 1011, en: 'Please enter a whole number.', cn: '请输入整数。' },
  invalid_amount: { code: 1012, en: 'Please enter a valid amount.', cn: '请输入有效金额。' },
  text_malformed: { code: 1013, en: 'The text contains characters that cannot be saved.', cn: '文字中包含无法保存的字符。' },

  // Login
  login_incorrect: { code: 1101, en: 'Email or password incorrect.', cn: '邮箱或密码错误。' },
  password_incorrect: { code: 1102, en: 'Password incorrect.', cn: '密码错误。' },
  user_disabled: { code: 1103, en: 'The username does not exist or has been disabled.', cn: '用户名不存在或已被禁用。' },
  login_locked: { code: 1104, en: 'Exceeded maximum password attempts, contact the administrator.', cn: '密码错误次数已达上限，请联系管理员。' },
  passkey_failed: { code: 1105, en: 'This passkey could not sign you in. Use another passkey or your password.', cn: '无法使用此通行密钥登录，请换用其他通行密钥或密码。' },
  passkey_not_added: { code: 1106, en: 'The passkey could not be added. Please try again.', cn: '无法添加通行密钥，请重试。' },
  passkeys_full: { code: 1107, en: 'You can keep at most {n} passkeys. Remove one first.', cn: '最多可保存 {n} 个通行密钥，请先删除一个。' },

  // Registration
  email_exists: { code: 1201, en: 'Email already exists.', cn: '邮箱已存在。' },
  email_not_in_use: { code: 1202, en: 'Email not in use.', cn: '该邮箱未注册。' },
  code_incorrect: { code: 1203, en: 'Incorrect or expired verification code.', cn: '验证码错误或已过期。' },
  bulk_registration: { code: 1204, en: 'Bulk registration prohibited.', cn: '禁止批量注册。' },
  invite_invalid: { code: 1205, en: 'Invalid invitation code.', cn: '邀请码无效。' },
  registration_closed: { code: 1206, en: 'Registration restricted.', cn: '注册受限。' },
  email_invalid: { code: 1207, en: 'Invalid email format.', cn: '邮箱格式不正确。' },
  code_format: { code: 1208, en: 'The verification code must be 6 digits.', cn: '验证码格式不正确，应为 6 位数字。' },
  invite_format: { code: 1209, en: 'The invitation code must be 6 letters or digits.', cn: '邀请码格式不正确，应为 6 位字母或数字。' },
  password_mismatch: { code: 1210, en: 'Passwords do not match.', cn: '两次输入的密码不一致。' },
  login_password_weak: {
    code: 1211,
    en: 'The password must be at least 8 characters with digits, uppercase and lowercase letters.',
    cn: '密码至少 8 位，且须包含数字、大写字母和小写字母。',
  },
  company_required: { code: 1212, en: 'Company name is required for corporate accounts.', cn: '企业账户须填写公司名称。' },
  uen_invalid: { code: 1213, en: 'Invalid UEN.', cn: 'UEN 格式不正确。' },
  code_too_soon: { code: 1214, en: 'A code was just sent. Please wait a minute.', cn: '验证码刚刚已发送，请一分钟后再试。' },

  // Passwords
  old_password_incorrect: { code: 1301, en: 'Old password incorrect.', cn: '旧密码错误。' },
  password_update_failed: { code: 1302, en: 'Failed to update password.', cn: '密码更新失败。' },
  withdraw_password_weak: {
    code: 1303,
    en: 'The payment password must be at least 10 characters with digits, uppercase and lowercase letters and special characters.',
    cn: '支付密码至少 10 位，且须包含数字、大写字母、小写字母和特殊字符。',
  },
  payment_password_same: { code: 1304, en: 'The payment password must differ from the login password.', cn: '支付密码不能与登录密码相同。' },
  withdraw_password_unset: { code: 1305, en: 'Please set your payment password first.', cn: '请先设置支付密码。' },

  // Profile
  ic_invalid: { code: 1401, en: 'Enter a valid NRIC or FIN: S, T, F, G or M, 7 digits and its check letter.', cn: '请输入有效的 NRIC 或 FIN：S、T、F、G 或 M 开头，7 位数字加校验字母。' },
  mobile_invalid: { code: 1402, en: 'Mobile number must be 8 digits.', cn: '手机号码只能为 8 位数字。' },
  holder_mismatch: { code: 1403, en: 'The holder name must match your registered name.', cn: '持卡人姓名须与注册姓名一致。' },
  name_required: { code: 1404, en: 'Please complete your name in personal information first.', cn: '请先在个人信息中填写姓名。' },

  // Wallet
  withdraw_weekend: { code: 1501, en: 'Withdrawals are not available on Saturdays or Sundays.', cn: '周六、周日不可提现。' },
  bank_incorrect: { code: 1502, en: 'Bank information incorrect. Please bind a bank account or PayNow first.', cn: '银行信息有误，请先绑定银行账户或 PayNow。' },
  withdraw_failed: { code: 1503, en: 'Failed to apply.', cn: '申请失败。' },
  insufficient_balance: { code: 1504, en: 'Insufficient balance.', cn: '余额不足。' },
  withdraw_below_min: { code: 1505, en: 'The amount cannot be less than {n}.', cn: '金额不能少于 {n}。' },
  withdraw_above_max: { code: 1506, en: 'The amount cannot be more than {n}.', cn: '金额不能超过 {n}。' },
  withdraw_daily_limit: { code: 1507, en: 'Daily limit reached: one withdrawal per day.', cn: '已达每日上限：每天只能提现一次。' },
  trade_password_incorrect: { code: 1508, en: 'Trading password incorrect. Attempts left: {n}.', cn: '交易密码错误，剩余尝试次数：{n}。' },
  account_locked: { code: 1509, en: 'Your account is locked. Please contact the administrator.', cn: '您的账户已被锁定，请联系管理员。' },
  balance_frozen: {
    code: 1510,
    en: 'Your balance has been frozen after multiple wrong passwords. Please contact the administrator.',
    cn: '由于多次输入错误密码，您的余额已被冻结，请联系管理员。',
  },
  topup_below_min: { code: 1511, en: 'The top-up amount cannot be less than {n}.', cn: '充值金额不能少于 {n}。' },
  withdraw_holiday: { code: 1512, en: 'Withdrawals are not available on public holidays.', cn: '公共假日不可提现。' },
  bank_or_paynow_required: { code: 1513, en: 'Please enter a bank account or a PayNow number.', cn: '请填写银行账户或 PayNow 号码。' },
  account_no_invalid: { code: 1514, en: 'The account number must be 6 to 20 digits.', cn: '银行账号应为 6 至 20 位数字。' },
  paynow_invalid: {
    code: 1515,
    en: 'PayNow must be an 8-digit mobile number, or a UEN for corporate accounts.',
    cn: 'PayNow 须为 8 位手机号码，企业账户也可使用 UEN。',
  },

  // Projects
  project_password_incorrect: { code: 1601, en: 'Password incorrect. Attempts left: {n}.', cn: '密码错误，剩余尝试次数：{n}。' },
  monthly_limit: { code: 1602, en: 'Monthly purchase limit: {n} tons.', cn: '每月购买上限：{n} 吨。' },
  total_limit: { code: 1603, en: 'Total purchase limit: {n} tons.', cn: '总购买上限：{n} 吨。' },
  below_min_tons: { code: 1604, en: 'Quantity cannot be less than {n}.', cn: '数量不能少于 {n}。' },
  above_max_tons: { code: 1605, en: 'Quantity cannot be more than {n}.', cn: '数量不能超过 {n}。' },
  insufficient_remaining: { code: 1606, en: 'Insufficient amount remaining.', cn: '剩余数量不足。' },
  project_not_started: { code: 1607, en: 'The project has not begun.', cn: '项目尚未开始。' },
  project_ended: { code: 1608, en: 'The project has ended.', cn: '项目已结束。' },
  project_full: { code: 1609, en: 'The project is full.', cn: '项目已满。' },
  presale_quantity: { code: 1610, en: 'Wrong pre-sale quantity.', cn: '预售数量错误。' },
  grade_not_met: { code: 1611, en: 'Your membership level does not meet the requirement.', cn: '您的会员等级未达到要求。' },

  // Sell and final payment
  insufficient_credits: { code: 1701, en: 'Insufficient carbon credit balance.', cn: '碳信用余额不足。' },
  final_payment_failed: { code: 1702, en: 'Final payment failed.', cn: '尾款支付失败。' },
  final_payment_expired: { code: 1703, en: 'The final payment period has expired.', cn: '尾款支付期限已过。' },
  sell_not_eligible: { code: 1704, en: 'You are not eligible to sell.', cn: '您没有出售资格。' },

  // Carbon footprint questionnaire (the limits are FOOTPRINT_LIMITS in schemas/footprint.ts)
  footprint_out_of_range: { code: 1901, en: 'This number is outside the range the calculator accepts. Please check it.', cn: '该数值超出计算器可接受的范围，请检查。' },
  footprint_household_size: { code: 1902, en: 'Household size must be between 1 and 20 people.', cn: '家庭人数须在 1 至 20 人之间。' },
  footprint_electricity_required: {
    code: 1903,
    en: "Please enter your household's monthly electricity use in kWh or your monthly bill in S$.",
    cn: '请输入家庭每月用电量（千瓦时）或每月电费（新元）。',
  },
  footprint_car_fuel: { code: 1904, en: "Please choose your car's fuel type.", cn: '请选择汽车的燃料类型。' },
  footprint_diet: { code: 1905, en: 'Please choose the diet closest to yours.', cn: '请选择最接近您的饮食类型。' },

  // Avatar upload (modules/avatar; the limits are AVATAR_MAX_BYTES and AVATAR_MAX_MEGAPIXELS in config)
  avatar_too_large: { code: 2001, en: 'The picture is too large. Please choose one under {n} MB.', cn: '图片太大，请选择小于 {n} MB 的图片。' },
  avatar_not_image: { code: 2002, en: 'This file is not a picture we can use. Please choose a JPEG, PNG or WebP image.', cn: '该文件不是可用的图片，请选择 JPEG、PNG 或 WebP 图片。' },
  avatar_too_many_pixels: { code: 2003, en: 'The picture has too many pixels. Please choose one under {n} megapixels.', cn: '图片像素过多，请选择小于 {n} 百万像素的图片。' },
  avatar_unreadable: { code: 2004, en: 'The picture is damaged or incomplete. Please choose another one.', cn: '图片已损坏或不完整，请选择其他图片。' },

  // Notifications inbox (modules/user/notifications.ts)
  notice_not_found: { code: 2101, en: 'This notice does not exist.', cn: '该通知不存在。' },
  // Web Push: a subscription whose address is not a push service the server sends to (docs/decisions/0033-web-push.md)
  push_endpoint_refused: { code: 2102, en: "Notifications cannot be sent to this browser's push service.", cn: '无法向此浏览器的推送服务发送通知。' },

  // PayNow top-ups and reconciliation (modules/wallet, src/shared/paynow.ts)
  topup_reference_invalid: {
    code: 2301,
    en: 'A top-up reference is "CNP" and 12 more capital letters and digits (no 0, 1, I, L or O), as we assign them. Leave it out and we assign one.',
    cn: '充值参考号为“CNP”加 12 位大写字母或数字（不含 0、1、I、L、O），与系统分配的格式相同。不填写则由系统分配。',
  },
  topup_reference_taken: {
    code: 2302,
    en: 'This reference is already used by another top-up. Leave it out and we assign a new one.',
    cn: '该参考号已被其他充值使用。不填写则由系统分配新的参考号。',
  },

  // Retirement and certificates (modules/retire). A wrong payment password reuses project_password_incorrect.
  retire_insufficient_credits: {
    code: 2201,
    en: 'Not enough credits of this project to retire: you hold {n} t.',
    cn: '该项目的碳信用不足，无法注销：您持有 {n} 吨。',
  },
  retire_pending_sale: {
    code: 2202,
    en: '{n} t of this project are pending sale and cannot be retired. You can retire up to {m} t.',
    cn: '该项目有 {n} 吨正在出售中，无法注销。您最多可注销 {m} 吨。',
  },
  retire_not_retirable: { code: 2203, en: 'Credits of this project cannot be retired.', cn: '该项目的碳信用无法注销。' },
  retire_beneficiary_required: { code: 2204, en: "Please enter the beneficiary's name.", cn: '请输入受益人名称。' },
  retire_beneficiary_too_long: { code: 2205, en: "The beneficiary's name can have at most 100 characters.", cn: '受益人名称不能超过 100 个字符。' },
  retire_beneficiary_invalid: {
    code: 2206,
    en: "The beneficiary's name contains control characters that cannot be printed on a certificate.",
    cn: '受益人名称包含无法打印在证书上的控制字符。',
  },
  retire_reason_too_long: { code: 2207, en: 'The reason can have at most 200 characters.', cn: '注销原因不能超过 200 个字符。' },
  retire_tons_invalid: { code: 2208, en: 'Please enter a whole number of tons, at least 1.', cn: '请输入至少为 1 的整数吨数。' },
  certificate_not_found: { code: 2209, en: 'This certificate does not exist.', cn: '该证书不存在。' },
  retire_reason_invalid: { code: 2210, en: 'The reason contains characters that cannot be printed on the certificate.', cn: '原因中包含无法打印在证书上的字符。' },
  retire_hide_beneficiary_invalid: { code: 2211, en: 'Whether to show the beneficiary must be true or false.', cn: '是否显示受益人只能为 true 或 false。' },

  // Registry cancellation and reconciliation (docs/product.md#registry-cancellation).
  project_sales_paused: {
    code: 3121,
    en: 'Sales of this project are paused: its registry account holds fewer credits than Canopy counts, and we are checking it with the registry. Credits you already paid for are safe.',
    cn: '该项目暂停销售：其登记处账户持有的碳信用少于 Canopy 的记录，我们正在与登记处核对。您已付款的碳信用不受影响。',
  },
  retire_registry_units_short: {
    code: 3122,
    en: 'Only {n} t of this project can be retired right now: the registry units behind it are being checked. Please try a smaller amount or try again later.',
    cn: '该项目目前只能注销 {n} 吨：其对应的登记处单位正在核对中。请减少数量或稍后再试。',
  },

  // Singapore carbon tax (modules/icc; docs/product.md#singapore-carbon-tax). The reasons a project is not
  // eligible have their own catalogue (shared/icc/reasons.ts); icc_not_eligible names them.
  icc_not_eligible: {
    code: 2701,
    en: 'These credits cannot be counted against Singapore carbon tax: {reasons}',
    cn: '这些碳信用不能用于抵扣新加坡碳税：{reasons}',
  },
  icc_year_invalid: { code: 2702, en: 'Please choose a compliance year from 2024 to 2100.', cn: '请选择 2024 至 2100 年之间的履约年度。' },
  icc_emissions_invalid: { code: 2703, en: 'Please enter the taxable emissions in whole tons.', cn: '请以整吨输入应税排放量。' },
  icc_period_invalid: {
    code: 2704,
    en: 'Please choose a period of at most 3 years whose start is not after its end.',
    cn: '请选择不超过 3 年、且开始日期不晚于结束日期的期间。',
  },
  icc_pack_not_issued: {
    code: 2705,
    en: 'Not issued by Canopy: no evidence pack with this fingerprint was issued, or the file was changed.',
    cn: '并非 Canopy 签发：没有具有此指纹的证明文件包，或文件已被更改。',
  },
  // Monthly offset plans (modules/offset). The buy each month refuses with the buy's own entries.
  offset_plan_not_found: { code: 2801, en: 'This monthly offset does not exist.', cn: '该每月碳抵消计划不存在。' },
  offset_day_invalid: { code: 2802, en: 'Choose a day of the month from 1 to 31.', cn: '请选择每月 1 至 31 日中的一天。' },
  offset_tons_invalid: { code: 2803, en: 'Please enter a whole number of tons, at least 1.', cn: '请输入至少为 1 的整数吨数。' },
  offset_cancelled: { code: 2804, en: 'This monthly offset is cancelled and cannot be changed.', cn: '该每月碳抵消计划已取消，无法更改。' },
  offset_plans_limit: { code: 2805, en: 'You can have at most {n} monthly offsets.', cn: '您最多可设置 {n} 个每月碳抵消计划。' },
  offset_maker_gone: {
    code: 2806,
    en: 'The member who set up this monthly offset no longer buys for the organisation. Change it with your own payment password to resume it.',
    cn: '设置此每月碳抵消的成员已不再代表机构购买。请使用您自己的支付密码修改后再恢复。',
  },

  // Receipts (docs/product.md#receipts)
  receipt_not_found: { code: 2901, en: 'This receipt does not exist.', cn: '该收据不存在。' },

  // Organisations, members and roles (modules/org, docs/product.md#organisations)
  org_role_forbidden: { code: 2601, en: 'Your role in this organisation does not allow this.', cn: '您在该机构中的角色无权执行此操作。' },
  org_not_member: { code: 2602, en: 'You are not a member of this organisation.', cn: '您不是该机构的成员。' },
  org_invite_invalid: { code: 2603, en: 'This invitation link is invalid, used or expired. Ask for a new one.', cn: '该邀请链接无效、已使用或已过期，请重新索取。' },
  org_invite_email: { code: 2604, en: 'This invitation is for {email}. Sign in with that email to join.', cn: '该邀请发给 {email}，请使用该邮箱登录后加入。' },
  org_member_exists: { code: 2605, en: 'This person is already a member of the organisation.', cn: '此人已是该机构的成员。' },
  org_owner_fixed: { code: 2606, en: "The organisation's owner cannot be removed or given another role.", cn: '机构所有者不能被移除或更改角色。' },
  org_personal_only: { code: 2607, en: 'Only a personal account can join an organisation.', cn: '只有个人账户可以加入机构。' },
  org_member_not_found: { code: 2608, en: 'This member does not exist.', cn: '该成员不存在。' },
  org_own_role: { code: 2609, en: 'You cannot change your own role. Ask the owner or another admin.', cn: '您不能更改自己的角色，请联系所有者或其他管理员。' },
  // Approvals (modules/approval, docs/product.md#approvals)
  approval_not_found: { code: 2650, en: 'This request does not exist.', cn: '该申请不存在。' },
  approval_own: { code: 2651, en: 'You cannot approve or decline your own request.', cn: '您不能审批自己提交的申请。' },
  approval_decided: { code: 2652, en: 'This request is no longer waiting: it was approved, declined or has expired.', cn: '该申请已不在等待中：已被批准、拒绝或已过期。' },
  approval_owner_only: { code: 2653, en: 'Only the owner can set the approval thresholds.', cn: '只有机构所有者可以设置审批门槛。' },
  approval_not_yours: { code: 2654, en: 'Only the member who asked can cancel this request.', cn: '只有提交该申请的成员可以撤销。' },
  // Integrators: API keys and the /v1 API (docs/product.md#integrators)
  api_key_invalid: { code: 3201, en: 'The API key is missing, unknown, revoked or expired.', cn: 'API 密钥缺失、无效、已撤销或已过期。' },
  api_key_scope: { code: 3202, en: 'This API key does not have the {scope} scope.', cn: '此 API 密钥没有 {scope} 权限。' },
  api_key_not_found: { code: 3203, en: 'This API key does not exist.', cn: '该 API 密钥不存在。' },
  api_key_forbidden: { code: 3204, en: 'Only the owner or an admin of the organisation can manage its API keys.', cn: '只有机构所有者或管理员可以管理 API 密钥。' },
  api_idempotency_required: { code: 3205, en: 'Every POST needs an Idempotency-Key header (8 to 100 letters, digits, - or _).', cn: '每个 POST 请求都需要 Idempotency-Key 请求头（8 至 100 个字母、数字、- 或 _）。' },
  api_not_found: { code: 3206, en: 'No such resource.', cn: '资源不存在。' },
  api_quote_expired: { code: 3207, en: 'This quote does not exist or has expired. Ask for a new one.', cn: '该报价不存在或已过期，请重新获取报价。' },
  api_approval_required: { code: 3208, en: 'This retirement needs an approver of the organisation: make it in the app.', cn: '此注销需要机构审批人批准，请在应用内操作。' },
  api_test_only: { code: 3209, en: 'Play money is for test keys only.', cn: '模拟资金仅限测试密钥使用。' },
  api_keys_full: { code: 3210, en: 'An account can keep at most {n} active API keys. Revoke one first.', cn: '每个账户最多可保留 {n} 个有效 API 密钥，请先撤销一个。' },
  api_key_expiry_invalid: { code: 3211, en: 'The expiry must be in the future.', cn: '到期时间必须晚于当前时间。' },
  api_key_revoked: { code: 3213, en: 'This API key is already revoked or expired.', cn: '该 API 密钥已撤销或已过期。' },
  // The attacker's second pass (3051-3059)
  api_key_trade_forbidden: {
    code: 3051,
    en: 'A live key that buys or retires spends the organisation\'s money: only a member who may trade for it (its owner) can make or use one.',
    cn: '可购买或注销的正式密钥会动用机构的资金：只有可为机构交易的成员（所有者）才能创建或使用。',
  },
  // Webhooks (modules/webhook, docs/product.md#webhooks)
  webhook_url_invalid: { code: 3231, en: 'The receiver must be an https:// address without a user name or password.', cn: '接收地址必须是 https:// 地址，且不能包含用户名或密码。' },
  webhook_url_private: { code: 3232, en: 'The receiver must not be a private, loopback or link-local address.', cn: '接收地址不能是私有、回环或链路本地地址。' },
  webhook_events_invalid: { code: 3233, en: 'Choose at least one event this endpoint receives.', cn: '请至少选择一个该端点接收的事件。' },
  webhook_not_found: { code: 3234, en: 'This webhook endpoint does not exist.', cn: '该 Webhook 端点不存在。' },
  webhook_endpoints_full: { code: 3235, en: 'You can have at most {n} webhook endpoints. Delete one first.', cn: '最多可设置 {n} 个 Webhook 端点，请先删除一个。' },
  webhook_delivery_not_found: { code: 3236, en: 'This delivery does not exist.', cn: '该投递记录不存在。' },

  // Per-person scopes and hardening (3031-3049)
  passkey_needs_name: {
    code: 3031,
    en: 'Passkeys need Canopy opened at a host name (such as localhost), not at an IP address. Use your password here.',
    cn: '通行密钥需要通过主机名（例如 localhost）打开 Canopy，不能使用 IP 地址。请在此使用密码。',
  },
} as const satisfies Record<string, CatalogueEntry>;

export type ErrorKey = keyof typeof ERRORS;

/** What a form says under an empty field it knows by name: the same rule and code as `required` (1001), in
 *  words that say what to enter. The server answers `required` naming the field; forms show these. */
export const REQUIRED_FIELD_MESSAGES: Readonly<Record<string, { en: string; cn: string }>> = {
  email: { en: 'Enter your email.', cn: '请输入邮箱。' },
  password: { en: 'Enter your password.', cn: '请输入密码。' },
  repassword: { en: 'Enter the password again.', cn: '请再次输入密码。' },
  code: { en: 'Enter the verification code.', cn: '请输入验证码。' },
  household_size: { en: 'Enter how many people live in your home.', cn: '请输入家庭人数。' },
  diet: { en: 'Choose the diet closest to yours.', cn: '请选择最接近您的饮食类型。' },
};

/** A placeholder's value: the same in every language, or one text per language (a list of reasons). */
export type MessageParams = Record<string, string | number | Readonly<Record<Lang, string>>>;

export function isErrorKey(key: string): key is ErrorKey {
  return Object.prototype.hasOwnProperty.call(ERRORS, key);
}

/** The message of a catalogue entry in a language, with {placeholders} filled. */
export function errorMessage(key: ErrorKey, lang: Lang, params?: MessageParams): string {
  const text = ERRORS[key][lang];
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = params[name];
    if (value === undefined) return whole;
    return typeof value === 'object' ? value[lang] : String(value);
  });
}

const byCode = new Map<number, ErrorKey>(Object.entries(ERRORS).map(([key, entry]) => [entry.code, key as ErrorKey]));

export function errorKeyOfCode(code: number): ErrorKey | undefined {
  return byCode.get(code);
}
