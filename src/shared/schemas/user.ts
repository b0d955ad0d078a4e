export interface WalletBalances {
  available: number; // cents
  frozen: number; // cents
  presale: number; // cents
  unavailable: number; // cents
  credits: number; // tons
}

export interface UserInfo {
  mem_id: number;
  type: 'personal' | 'corporate' | 'visitor';
  email: string;
  first_name: string;
  last_name: string;
  realname: string;
  mobile: string;
  avatar: string;
  company: string;
  uen: string;
  ic_number: string;
  invite_code: string;
  grade: number; // P0..P5
  credit_score: 'excellent' | 'medium' | 'poor';
  risk: boolean;
  locked: boolean; // withdrawal password locked, balance frozen
  login_locked: boolean;
  has_withdraw_password: boolean;
  joined_at: number;
  wallet: WalletBalances | null; // null for a visitor
}
